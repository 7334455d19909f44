import MockProvider
import Yams

/// Decodes one scenario mapping into a `Scenario`, reporting every problem it finds.
struct ScenarioDecoder {
    static let formatVersion = 1
    static let topLevelKeys = ["conformance", "id", "title", "description", "area", "level", "spec", "requires", "provider", "steps", "expect"]

    let reader: YAMLReader

    func decode(_ node: Node) -> Scenario? {
        guard let top = reader.mapping(node, "a scenario", allowedKeys: Self.topLevelKeys) else { return nil }
        checkFormatVersion(top)
        let id = top.required("id").flatMap { scenarioID($0) }
        let title = top.required("title").flatMap { reader.string($0, "title") }
        let summary = top["description"].flatMap { reader.string($0, "description") }
        let area = top.required("area").flatMap { reader.enumeration($0, "area", as: Area.self) }
        let level = top.required("level").flatMap { reader.enumeration($0, "level", as: Level.self) }
        let spec = top["spec"].map { reader.scalarList($0, "spec") } ?? []
        let requires = top["requires"].map { capabilities($0) } ?? []
        let provider = top["provider"].map { providerSettings($0) } ?? ProviderSettings()
        let steps = top.required("steps").flatMap { self.steps($0) }
        let expectations = top.required("expect", hint: " (what a conforming client must have done)").flatMap { self.expectations($0) }
        guard let id, let title, let area, let level, let provider, let steps, let expectations else { return nil }
        return Scenario(
            id: id, title: title, summary: summary, area: area, level: level, spec: spec, requires: requires,
            provider: provider, steps: steps, expectations: expectations, file: reader.file
        )
    }

    private func checkFormatVersion(_ top: CheckedMapping) {
        guard let node = top.required("conformance", hint: " (the format version: conformance: \(Self.formatVersion))"),
              let version = reader.int(node, "conformance (the format version)", in: 0...Int.max)
        else { return }
        if version != Self.formatVersion {
            reader.error("format version \(version) is not supported; this harness reads conformance: \(Self.formatVersion)", at: node)
        }
    }

    private func scenarioID(_ node: Node) -> String? {
        guard let id = reader.string(node, "id") else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_/.{}")
        guard !id.isEmpty, id.allSatisfy(allowed.contains) else {
            reader.error("id '\(id)' may hold only lowercase letters, digits and - _ / . (e.g. refresh/keeps-previous-refresh-token)", at: node)
            return nil
        }
        return id
    }

    private func capabilities(_ node: Node) -> [Capability] {
        let items: [Node] = if case .scalar = node { [node] } else { reader.sequence(node, "requires") ?? [] }
        return items.compactMap { reader.enumeration($0, "capability", as: Capability.self) }
    }

    // MARK: Provider

    private func providerSettings(_ node: Node) -> ProviderSettings? {
        guard let provider = reader.mapping(node, "provider", allowedKeys: ["tokens", "rules"]) else { return nil }
        var settings = ProviderSettings()
        if let tokensNode = provider["tokens"],
           let tokens = reader.mapping(tokensNode, "provider.tokens", allowedKeys: ["access_lifetime", "refresh_lifetime", "rotate_refresh_tokens"]) {
            if let lifetime = tokens["access_lifetime"].flatMap({ reader.duration($0, "access_lifetime") }) {
                settings.tokens.accessLifetime = lifetime
            }
            settings.tokens.refreshLifetime = tokens["refresh_lifetime"].flatMap { reader.duration($0, "refresh_lifetime") }
            if let rotate = tokens["rotate_refresh_tokens"].flatMap({ reader.bool($0, "rotate_refresh_tokens") }) {
                settings.tokens.rotateRefreshTokens = rotate
            }
        }
        if let rulesNode = provider["rules"] {
            settings.rules = (reader.sequence(rulesNode, "provider.rules") ?? []).compactMap(rule)
        }
        return settings
    }

    private static let ruleActions = ["respond", "token_response", "error"]

    private func rule(_ node: Node) -> ProviderRule? {
        guard let rule = reader.mapping(node, "a rule", allowedKeys: ["when"] + Self.ruleActions) else { return nil }
        let matcher = rule["when"].map(requestMatcher) ?? RequestMatcher()
        guard let actionKey = rule.exactlyOne(of: Self.ruleActions), let actionNode = rule[actionKey] else { return nil }
        let action: RuleAction? = switch actionKey {
        case "respond": scriptedResponse(actionNode).map(RuleAction.respond)
        case "token_response": tokenAlteration(actionNode).map(RuleAction.alterTokenResponse)
        default: scriptedError(actionNode).map(RuleAction.oauthError)
        }
        guard let matcher, let action else { return nil }
        return ProviderRule(match: matcher, action: action)
    }

    private func requestMatcher(_ node: Node) -> RequestMatcher? {
        guard let when = reader.mapping(node, "when", allowedKeys: ["endpoint", "grant", "call"]) else { return nil }
        var matcher = RequestMatcher()
        matcher.endpoint = when["endpoint"].flatMap { reader.enumeration($0, "endpoint", as: Endpoint.self) }
        matcher.grant = when["grant"].flatMap { reader.enumeration($0, "grant", as: GrantType.self) }
        if let call = when["call"].flatMap({ reader.int($0, "call", in: 1...1_000_000) }) {
            matcher.calls = .nth(call)
        }
        return matcher
    }

    private func scriptedResponse(_ node: Node) -> ProviderResponse? {
        guard let respond = reader.mapping(node, "respond", allowedKeys: ["status", "headers", "body"]),
              let status = respond.required("status").flatMap({ reader.int($0, "status", in: 100...599) })
        else { return nil }
        var headers: [HeaderField] = []
        if let headersNode = respond["headers"], case .mapping(let mapping) = headersNode {
            for (name, value) in mapping {
                if let name = reader.string(name, "a header name"), let value = reader.string(value, "header \(name)") {
                    headers.append(HeaderField(name, value))
                }
            }
        } else if let headersNode = respond["headers"] {
            reader.error("respond.headers must be a mapping of header names to values", at: headersNode)
        }
        let body = respond["body"].flatMap { reader.string($0, "respond.body") } ?? ""
        return ProviderResponse(status: status, headers: headers, body: body)
    }

    /// `token_response: { refresh_token: null }` sets members; `omit: [refresh_token]` removes them.
    private func tokenAlteration(_ node: Node) -> TokenResponseAlteration? {
        guard case .mapping(let mapping) = node else {
            reader.error("token_response must be a mapping of response members (and 'omit: [names]')", at: node)
            return nil
        }
        var alteration = TokenResponseAlteration()
        for (key, value) in mapping {
            guard let name = reader.string(key, "a token response member") else { continue }
            if name == "omit" {
                alteration.omit.formUnion(reader.scalarList(value, "token_response.omit"))
            } else if let json = reader.json(value, "token_response.\(name)") {
                alteration.set[name] = json
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
                reader.diagnostics.warning("'\(code)' is not an RFC 6749 §5.2 code; did you mean '\(near)'?", at: reader.location(of: error["code"]!))
            }
        }
        return ScriptedOAuthError(
            code: code,
            description: error["description"].flatMap { reader.string($0, "error.description") },
            uri: error["uri"].flatMap { reader.string($0, "error.uri") },
            status: error["status"].flatMap { reader.int($0, "error.status", in: 100...599) }
        )
    }

    // MARK: Steps

    static let stepActions = ["login", "request", "advance", "advance_to"]

    private func steps(_ node: Node) -> [Step]? {
        guard let items = reader.sequence(node, "steps") else { return nil }
        if items.isEmpty { reader.error("steps is empty; a scenario needs at least one step", at: node) }
        let steps = items.map(step)
        return steps.contains(where: { $0 == nil }) ? nil : steps.compactMap { $0 }
    }

    private func step(_ node: Node) -> Step? {
        guard let step = reader.mapping(node, "a step", allowedKeys: Self.stepActions + ["outcome"]),
              let actionKey = step.exactlyOne(of: Self.stepActions), let actionNode = step[actionKey]
        else { return nil }
        let action: StepAction? = switch actionKey {
        case "login": reader.enumeration(actionNode, "login grant", as: GrantType.self).map(StepAction.login)
        case "request": resourceRequest(actionNode)
        case "advance": reader.duration(actionNode, "advance").map(StepAction.advance)
        default: reader.timeExpression(actionNode, "advance_to").map(StepAction.advanceTo)
        }
        let outcome = step["outcome"].map(expectedOutcome)
        guard let action, outcome != .some(nil) else { return nil }
        return Step(action, expecting: outcome.flatMap { $0 })
    }

    private static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// `request: GET /resource`.
    private func resourceRequest(_ node: Node) -> StepAction? {
        guard let text = reader.string(node, "request") else { return nil }
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 2, Self.methods.contains(parts[0]), parts[1].hasPrefix("/") else {
            reader.error("request must read 'METHOD /path', e.g. 'GET /resource' (methods: \(YAMLReader.list(Self.methods)))", at: node)
            return nil
        }
        return .request(method: parts[0], path: parts[1])
    }

    /// `outcome: succeeds`, `outcome: { error: authorization_required }` or
    /// `outcome: { error: { category: oauth_error, oauth_error: invalid_scope } }`.
    private func expectedOutcome(_ node: Node) -> ExpectedOutcome? {
        if case .scalar = node {
            guard reader.string(node, "outcome") == "succeeds" else {
                reader.error("outcome must be 'succeeds' or { error: CATEGORY }", at: node)
                return nil
            }
            return .succeeds
        }
        guard let outcome = reader.mapping(node, "outcome", allowedKeys: ["error"]),
              let errorNode = outcome.required("error")
        else { return nil }
        if case .scalar = errorNode {
            return reader.enumeration(errorNode, "error category", as: ErrorCategory.self).map { .fails(category: $0, oauthError: nil) }
        }
        guard let error = reader.mapping(errorNode, "outcome.error", allowedKeys: ["category", "oauth_error"]) else { return nil }
        let category = error["category"].flatMap { reader.enumeration($0, "error category", as: ErrorCategory.self) }
        let code = error["oauth_error"].flatMap { reader.string($0, "oauth_error") }
        return .fails(category: category, oauthError: code)
    }

    // MARK: Expectations

    static let expectationForms = ["every_step", "count", "request", "first", "never"]

    private func expectations(_ node: Node) -> [Expectation]? {
        guard let items = reader.sequence(node, "expect") else { return nil }
        if items.isEmpty { reader.error("expect is empty; a scenario that expects nothing cannot fail", at: node) }
        let expectations = items.map(expectation)
        return expectations.contains(where: { $0 == nil }) ? nil : expectations.compactMap { $0 }
    }

    private func expectation(_ node: Node) -> Expectation? {
        guard let item = reader.mapping(node, "an expectation", allowedKeys: Self.expectationForms + ["carries", "within"]),
              let form = item.exactlyOne(of: Self.expectationForms), let body = item[form]
        else { return nil }
        if form != "request", let carries = item.entries["carries"] {
            reader.error("'carries' goes with 'request'", at: carries.key)
        }
        if form != "first", let within = item.entries["within"] {
            reader.error("'within' goes with 'first'", at: within.key)
        }
        switch form {
        case "every_step":
            guard reader.string(body, "every_step") == "succeeds" else {
                reader.error("every_step must be 'succeeds'", at: body)
                return nil
            }
            return .everyStepSucceeds
        case "count":
            guard let count = reader.mapping(body, "count", allowedKeys: Self.filterKeys + ["exactly", "at_most", "at_least"]),
                  let boundKey = count.exactlyOne(of: ["exactly", "at_most", "at_least"]),
                  let limit = count[boundKey].flatMap({ reader.int($0, boundKey, in: 0...1_000_000) })
            else { return nil }
            let bound: CountBound = switch boundKey {
            case "exactly": .exactly(limit)
            case "at_most": .atMost(limit)
            default: .atLeast(limit)
            }
            return requestFilter(count).map { .count($0, bound) }
        case "request":
            guard let request = reader.mapping(body, "request", allowedKeys: Self.filterKeys + ["call"]),
                  let call = request.required("call", hint: " (which matching request, from 1)").flatMap({ reader.int($0, "call", in: 1...1_000_000) }),
                  let carriesNode = item.required("carries", hint: " (e.g. carries: { access_token: access_token#2 })"),
                  let token = carriedToken(carriesNode),
                  let filter = requestFilter(request)
            else { return nil }
            return .carries(filter, call: call, token: token)
        case "first":
            guard let first = reader.mapping(body, "first", allowedKeys: Self.filterKeys),
                  let withinNode = item.required("within", hint: " (e.g. within: { from: …, before: … })"),
                  let within = reader.mapping(withinNode, "within", allowedKeys: ["from", "before"]),
                  let from = within.required("from").flatMap({ reader.timeExpression($0, "within.from") }),
                  let before = within.required("before").flatMap({ reader.timeExpression($0, "within.before") }),
                  let filter = requestFilter(first)
            else { return nil }
            return .firstArrives(filter, from: from, before: before)
        default:
            guard let never = reader.mapping(body, "never", allowedKeys: Self.filterKeys + ["carries"]) else { return nil }
            var carriesExpired = false
            if let carries = never["carries"] {
                guard reader.string(carries, "never.carries") == "expired_access_token" else {
                    reader.error("never.carries must be 'expired_access_token'", at: carries)
                    return nil
                }
                carriesExpired = true
            }
            return requestFilter(never).map { .never($0, carryingExpiredAccessToken: carriesExpired) }
        }
    }

    static let filterKeys = ["endpoint", "grant", "status"]

    private func requestFilter(_ mapping: CheckedMapping) -> RequestFilter? {
        var filter = RequestFilter()
        var valid = true
        if let node = mapping["endpoint"] {
            filter.endpoint = reader.enumeration(node, "endpoint", as: Endpoint.self)
            valid = valid && filter.endpoint != nil
        }
        if let node = mapping["grant"] {
            filter.grant = reader.enumeration(node, "grant", as: GrantType.self)
            valid = valid && filter.grant != nil
        }
        if let node = mapping["status"] {
            filter.status = reader.int(node, "status", in: 100...599)
            valid = valid && filter.status != nil
        }
        return valid ? filter : nil
    }

    /// `carries: { access_token: access_token#2 }`: the key names where the token travels.
    private func carriedToken(_ node: Node) -> CarriedToken? {
        let kinds = [IssuedToken.Kind.access.rawValue, IssuedToken.Kind.refresh.rawValue]
        guard let carries = reader.mapping(node, "carries", allowedKeys: kinds),
              let key = carries.exactlyOne(of: kinds),
              let reference = carries[key].flatMap({ reader.tokenReference($0, "carries.\(key)") })
        else { return nil }
        guard reference.kind.rawValue == key else {
            reader.error("carries.\(key) must name a \(key), not \(reference)", at: carries[key]!)
            return nil
        }
        return CarriedToken(reference)
    }
}
