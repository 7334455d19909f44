import MockProvider
import Yams

/// Decodes one provider rule: which requests it takes (`when`), what it answers instead (one
/// action, optional) and how the answer travels (`delay`, `jitter`, `transport`, optional).
struct RuleDecoder {
    static let actions = [
        "respond", "token_response", "error", "sequence", "redirect", "authorization_response", "retry_later",
        "id_token", "dpop_nonce",
    ]
    static let deliveries = ["delay", "jitter", "transport"]

    let reader: YAMLReader

    func decode(_ node: Node) -> ProviderRule? {
        guard let rule = reader.mapping(node, "a rule", allowedKeys: ["when"] + Self.actions + Self.deliveries) else {
            return nil
        }
        var matcher = rule["when"].map(requestMatcher) ?? RequestMatcher()
        let actionKeys = Self.actions.filter(rule.has)
        if actionKeys.count > 1 {
            reader.error(
                "a rule has \(YAMLReader.list(actionKeys)); give only one of them",
                at: rule.entries[actionKeys[1]]!.key
            )
            return nil
        }
        let action = actionKeys.first.map { self.action($0, rule[$0]!) }
        let delivery = self.delivery(rule)
        if actionKeys.isEmpty, delivery == nil {
            reader.error("a rule needs one of \(YAMLReader.list(Self.actions + Self.deliveries))", at: node)
            return nil
        }
        if case .some(.some(.alterIDToken)) = action {
            if let endpoint = matcher?.endpoint, endpoint != .token {
                reader.error(
                    "id_token alters the ID token of a token response; this rule's endpoint is \(endpoint.rawValue), not token",
                    at: rule.entries["id_token"]!.key
                )
                return nil
            }
            // Only token responses carry ID tokens: without this, a rule with no endpoint would take
            // (and answer correctly) requests that the rules after it are written for.
            matcher?.endpoint = .token
        }
        if case .some(.some(.renewDPoPNonce)) = action, let endpoint = matcher?.endpoint,
            endpoint != .token, endpoint != .resource
        {
            reader.error(
                "dpop_nonce renews the nonce of the token endpoint or the resource; this rule's endpoint is \(endpoint.rawValue)",
                at: rule.entries["dpop_nonce"]!.key
            )
            return nil
        }
        guard let matcher, action != .some(nil), delivery != .some(nil) else { return nil }
        return ProviderRule(match: matcher, action: action.flatMap { $0 }, delivery: delivery.flatMap { $0 })
    }

    private func action(_ key: String, _ node: Node) -> RuleAction? {
        switch key {
        case "respond": scriptedResponse(node).map(RuleAction.respond)
        case "token_response": tokenAlteration(node).map(RuleAction.alterTokenResponse)
        case "error": scriptedError(node).map(RuleAction.oauthError)
        case "sequence": sequence(node)
        case "redirect": redirect(node).map(RuleAction.redirect)
        case "retry_later": retryLater(node).map(RuleAction.retryLater)
        case "id_token": IDTokenDecoder(reader: reader).alteration(node).map(RuleAction.alterIDToken)
        case "dpop_nonce": dpopNonce(node)
        default: authorizationAlteration(node).map(RuleAction.alterAuthorizationResponse)
        }
    }

    /// `dpop_nonce: renew`: the server moves to a new DPoP nonce and demands it (RFC 9449 §8, §9).
    private func dpopNonce(_ node: Node) -> RuleAction? {
        guard let value = reader.string(node, "dpop_nonce") else { return nil }
        guard value == "renew" else {
            reader.error("dpop_nonce takes renew, not '\(value)'", at: node)
            return nil
        }
        return .renewDPoPNonce
    }

    /// `sequence: [{ respond: … }, { error: … }]`: one action per matching call.
    private func sequence(_ node: Node) -> RuleAction? {
        guard let items = reader.sequence(node, "sequence") else { return nil }
        let nested = Self.actions.filter { $0 != "sequence" }
        let actions = items.map { item -> RuleAction? in
            guard let step = reader.mapping(item, "a sequence item", allowedKeys: nested),
                let key = step.exactlyOne(of: nested)
            else { return nil }
            return action(key, step[key]!)
        }
        guard !actions.contains(where: { $0 == nil }) else { return nil }
        return .sequence(actions.compactMap { $0 })
    }

    /// `redirect: { status: 307, to: other_origin }` or `to: http://127.0.0.1:9999`.
    private func redirect(_ node: Node) -> Redirect? {
        guard let redirect = reader.mapping(node, "redirect", allowedKeys: ["status", "to"]),
            let targetNode = redirect.required("to", hint: " (other_origin, or a base URL)"),
            let target = reader.string(targetNode, "redirect.to")
        else { return nil }
        let status = redirect["status"].flatMap { reader.int($0, "redirect.status", in: 300...399) } ?? 307
        if target == "other_origin" { return Redirect(status: status, to: .otherOrigin) }
        guard target.hasPrefix("http://") || target.hasPrefix("https://") else {
            reader.error(
                "redirect.to must be other_origin or a base URL such as http://127.0.0.1:8080, not '\(target)'",
                at: targetNode
            )
            return nil
        }
        return Redirect(status: status, to: .base(target))
    }

    /// `retry_later: { status: 429, after: 30s, as: http_date }`.
    private func retryLater(_ node: Node) -> RetryLater? {
        guard let retry = reader.mapping(node, "retry_later", allowedKeys: ["status", "after", "as", "body"]),
            let after = retry.required("after", hint: " (e.g. after: 30s)").flatMap({
                reader.duration($0, "retry_later.after")
            })
        else { return nil }
        return RetryLater(
            status: retry["status"].flatMap { reader.int($0, "retry_later.status", in: 400...599) } ?? 503,
            after: after,
            format: retry["as"].flatMap { reader.enumeration($0, "Retry-After format", as: RetryLater.Format.self) }
                ?? .seconds,
            body: retry["body"].flatMap { reader.string($0, "retry_later.body") } ?? ""
        )
    }

    /// `authorization_response: { state: omit | previous | VALUE, iss: omit | VALUE, error: access_denied }`.
    private func authorizationAlteration(_ node: Node) -> AuthorizationResponseAlteration? {
        guard let alteration = reader.mapping(node, "authorization_response", allowedKeys: ["state", "iss", "error"])
        else { return nil }
        func change(_ key: String, allowingPrevious: Bool) -> AuthorizationResponseAlteration.Change? {
            guard let node = alteration[key], let text = reader.string(node, "authorization_response.\(key)") else {
                return nil
            }
            switch text {
            case "omit": return .omit
            case "previous" where allowingPrevious: return .previous
            default: return .replace(text)
            }
        }
        return AuthorizationResponseAlteration(
            state: change("state", allowingPrevious: true),
            issuer: change("iss", allowingPrevious: false),
            error: alteration["error"].flatMap { reader.string($0, "authorization_response.error") }
        )
    }

    /// The delivery keys of a rule: `nil` when it has none, `.some(nil)` when they are wrong.
    private func delivery(_ rule: CheckedMapping) -> Delivery?? {
        let delay = rule["delay"].map { reader.duration($0, "delay") }
        let jitter = rule["jitter"].map { reader.duration($0, "jitter") }
        let transport = rule["transport"].map(transportFault)
        if delay == nil, jitter == nil, transport == nil { return nil }
        if let transportKey = rule.entries["transport"]?.key, delay != nil || jitter != nil {
            reader.error("a rule with transport cannot also have delay or jitter", at: transportKey)
            return .some(nil)
        }
        if let transport { return .some(transport) }
        guard delay != .some(nil), jitter != .some(nil) else { return .some(nil) }
        return .some(.delayed(latency: (delay ?? nil) ?? .zero, jitter: (jitter ?? nil) ?? .zero))
    }

    private static let transportForms = ["never", "reset", "close_without_answer"]

    /// `transport: never | reset | close_without_answer`, `transport: { garbage: TEXT }` or
    /// `transport: { dribble: { chunk_size: 10, every: 100ms } }`.
    private func transportFault(_ node: Node) -> Delivery? {
        if case .scalar = node {
            guard let text = reader.string(node, "transport") else { return nil }
            switch text {
            case "never": return .never
            case "reset": return .reset
            case "close_without_answer": return .closeWithoutAnswer
            default:
                reader.error(
                    "'\(text)' is not a transport fault\(Suggestions.didYouMean(text, among: Self.transportForms)) (allowed: \(YAMLReader.list(Self.transportForms)), or { garbage: TEXT }, or { dribble: { chunk_size: N, every: DURATION } }, or { hold_until_request: N })",
                    at: node
                )
                return nil
            }
        }
        let forms = ["garbage", "dribble", "hold_until_request"]
        guard let transport = reader.mapping(node, "transport", allowedKeys: forms),
            let form = transport.exactlyOne(of: forms)
        else { return nil }
        if form == "garbage" {
            return reader.anyText(transport["garbage"]!, "transport.garbage").map(Delivery.garbage)
        }
        if form == "hold_until_request" {
            return reader.int(transport["hold_until_request"]!, "transport.hold_until_request", in: 1...1_000_000).map(
                Delivery.heldUntilRequest
            )
        }
        guard
            let dribble = reader.mapping(
                transport["dribble"]!,
                "transport.dribble",
                allowedKeys: ["chunk_size", "every"]
            ),
            let size = dribble.required("chunk_size").flatMap({ reader.int($0, "chunk_size", in: 1...1_048_576) }),
            let interval = dribble.required("every").flatMap({ reader.duration($0, "every") })
        else { return nil }
        return .dribble(chunkSize: size, interval: interval)
    }

    private func requestMatcher(_ node: Node) -> RequestMatcher? {
        guard
            let when = reader.mapping(
                node,
                "when",
                allowedKeys: ["endpoint", "grant", "call", "calls", "from_call", "during"]
            )
        else { return nil }
        var matcher = RequestMatcher()
        matcher.endpoint = when["endpoint"].flatMap { reader.enumeration($0, "endpoint", as: Endpoint.self) }
        matcher.grant = when["grant"].flatMap { reader.grant($0, "grant") }
        let selectors = ["call", "calls", "from_call"].filter(when.has)
        if selectors.count > 1 {
            reader.error(
                "when has \(YAMLReader.list(selectors)); give only one of them",
                at: when.entries[selectors[1]]!.key
            )
        }
        if let call = when["call"].flatMap({ reader.int($0, "call", in: 1...1_000_000) }) {
            matcher.calls = .nth(call)
        }
        if let range = when["calls"].flatMap(callRange) {
            matcher.calls = .range(range)
        }
        if let first = when["from_call"].flatMap({ reader.int($0, "from_call", in: 1...1_000_000) }) {
            matcher.calls = .from(first)
        }
        if let during = when["during"] {
            matcher.during = window(during)
        }
        return matcher
    }

    /// `calls: 2..4`: the second to the fourth matching call.
    private func callRange(_ node: Node) -> ClosedRange<Int>? {
        let text = reader.string(node, "calls") ?? ""
        let bounds = text.split(separator: ".", omittingEmptySubsequences: true).compactMap { Int($0) }
        guard text.contains(".."), bounds.count == 2, bounds[0] >= 1, bounds[0] <= bounds[1] else {
            reader.error("calls must read FIRST..LAST, e.g. 2..4, not '\(text)'", at: node)
            return nil
        }
        return bounds[0]...bounds[1]
    }

    /// `during: { from: 60s, before: 2m }`: virtual time in which the rule is in force.
    private func window(_ node: Node) -> Range<Duration>? {
        guard let during = reader.mapping(node, "during", allowedKeys: ["from", "before"]) else { return nil }
        let from = during["from"].flatMap { reader.duration($0, "during.from") } ?? .zero
        let before = during["before"].flatMap { reader.duration($0, "during.before") } ?? .seconds(10 * 365 * 86_400)
        guard from < before else {
            reader.error("during.from must come before during.before", at: node)
            return nil
        }
        return from..<before
    }

    private func scriptedResponse(_ node: Node) -> ProviderResponse? {
        guard let respond = reader.mapping(node, "respond", allowedKeys: ["status", "headers", "body"]),
            let status = respond.required("status").flatMap({ reader.int($0, "status", in: 100...599) })
        else { return nil }
        var headers: [HeaderField] = []
        if let headersNode = respond["headers"], case .mapping(let mapping) = headersNode {
            for (nameNode, valueNode) in mapping {
                guard let name = reader.string(nameNode, "a header name"),
                    let value = reader.anyText(valueNode, "header \(name)")
                else { continue }
                let field = HeaderField(name, value)
                if !field.hasTokenName {
                    reader.error(
                        "header name '\(name)' is not an HTTP token (RFC 9110 §5.1): letters, digits and !#$%&'*+-.^_`|~ only",
                        at: nameNode
                    )
                } else if !field.hasSendableValue {
                    reader.error("header \(name): a value cannot hold CR, LF or NUL (RFC 9110 §5.5)", at: valueNode)
                } else if reader.printable(value, "header \(name)", at: valueNode) != nil {
                    // The provider could send the other controls; the client would refuse the whole response.
                    headers.append(field)
                }
            }
        } else if let headersNode = respond["headers"] {
            reader.error("respond.headers must be a mapping of header names to values", at: headersNode)
        }
        let body = respond["body"].flatMap { reader.string($0, "respond.body") } ?? ""
        return ProviderResponse(status: status, headers: headers, body: body)
    }

    /// `token_response: { refresh_token: null }` sets members; the reserved keys `omit: [names]`,
    /// `encoding: form`, `content_type: omit | TYPE` and `truncate_at: BYTES` change the rest.
    private func tokenAlteration(_ node: Node) -> TokenResponseAlteration? {
        guard case .mapping(let mapping) = node else {
            reader.error("token_response must be a mapping of response members (and 'omit: [names]')", at: node)
            return nil
        }
        var alteration = TokenResponseAlteration()
        for (key, value) in mapping {
            guard let name = reader.string(key, "a token response member") else { continue }
            switch name {
            case "omit":
                alteration.omit.formUnion(reader.scalarList(value, "token_response.omit"))
            case "encoding":
                guard reader.string(value, "token_response.encoding") == "form" else {
                    reader.error(
                        "token_response.encoding must be 'form' (the body as application/x-www-form-urlencoded)",
                        at: value
                    )
                    continue
                }
                alteration.formEncoded = true
            case "content_type":
                alteration.contentType = reader.string(value, "token_response.content_type").map {
                    $0 == "omit" ? .omit : .replace($0)
                }
            case "truncate_at":
                alteration.truncatedTo = reader.int(value, "token_response.truncate_at", in: 0...1_048_576)
            default:
                if let json = reader.json(value, "token_response.\(name)") { alteration.set[name] = json }
            }
        }
        return alteration
    }

    private func scriptedError(_ node: Node) -> ScriptedOAuthError? {
        guard let error = reader.mapping(node, "error", allowedKeys: ["code", "description", "uri", "status"]),
            let code = error.required("code").flatMap({ reader.string($0, "error.code") })
        else { return nil }
        if OAuthErrorCode(rawValue: code) == nil {
            // Unknown codes are legal (extensions), but a near miss of a standard code is a typo.
            if let near = Suggestions.closest(to: code, among: OAuthErrorCode.allCases.map(\.rawValue)) {
                reader.diagnostics.warning(
                    "'\(code)' is not an RFC 6749 §5.2 code; did you mean '\(near)'?",
                    at: reader.location(of: error["code"]!)
                )
            }
        }
        return ScriptedOAuthError(
            code: code,
            description: error["description"].flatMap { reader.string($0, "error.description") },
            uri: error["uri"].flatMap { reader.string($0, "error.uri") },
            status: error["status"].flatMap { reader.int($0, "error.status", in: 100...599) }
        )
    }
}
