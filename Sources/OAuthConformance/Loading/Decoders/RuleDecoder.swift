import MockProvider
import Yams

/// Decodes one provider rule: which requests it takes (`when`), what it answers instead (one
/// action, optional; `RuleActionRegistry` names them and decodes each) and how the answer travels
/// (`delay`, `jitter`, `transport`, optional).
struct RuleDecoder {
    static let deliveries = ["delay", "jitter", "transport"]

    let reader: YAMLReader
    /// The numbers of the steps that sign in the client's own way (`sign_in: any`).
    var signInSteps: [Int] = []

    func decode(_ node: Node) -> ProviderRule? {
        let actionKeys = RuleActionRegistry.keys
        guard let rule = reader.mapping(node, "a rule", allowedKeys: ["when"] + actionKeys + Self.deliveries) else {
            return nil
        }
        var matcher = rule["when"].map(requestMatcher) ?? RequestMatcher()
        let given = RuleActionRegistry.actions.filter { rule.has($0.key) }
        if given.count > 1 {
            reader.error(
                "a rule has \(YAMLReader.list(given.map { $0.key })); give only one of them",
                at: rule.entries[given[1].key]!.key
            )
            return nil
        }
        let action = given.first.map { $0.ruleAction(rule[$0.key]!, reader: reader) }
        let delivery = self.delivery(rule)
        if given.isEmpty, delivery == nil {
            reader.error("a rule needs one of \(YAMLReader.list(actionKeys + Self.deliveries))", at: node)
            return nil
        }
        if let kind = given.first, case .some(.some) = action, var fitted = matcher {
            guard kind.fit(&fitted, keyNode: rule.entries[kind.key]!.key, reader: reader) else { return nil }
            matcher = fitted
        }
        guard let matcher, action != .some(nil), delivery != .some(nil) else { return nil }
        return ProviderRule(match: matcher, action: action.flatMap { $0 }, delivery: delivery.flatMap { $0 })
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
                allowedKeys: ["endpoint", "grant", "path", "call", "calls", "from_call", "during"]
            )
        else { return nil }
        var matcher = RequestMatcher()
        matcher.endpoint = when["endpoint"].flatMap { reader.enumeration($0, "endpoint", as: Endpoint.self) }
        matcher.grant = when["grant"].flatMap { reader.grant($0, "grant", besideEndpoint: matcher.endpoint) }
        matcher.path = when["path"].flatMap { Self.path($0, reader: reader) }
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
        if let signInStep = signInSteps.first, let problem = Self.signInDependence(of: matcher, signInStep: signInStep)
        {
            reader.error("when \(problem)", at: node)
            return nil
        }
        return matcher
    }

    /// `path: /.well-known/openid-configuration/tenant1`: a path without a query, as requests are
    /// matched by theirs.
    static func path(_ node: Node, reader: YAMLReader) -> String? {
        guard let path = reader.string(node, "path") else { return nil }
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#") else {
            reader.error("path must start with '/' and have no query or fragment, not '\(path)'", at: node)
            return nil
        }
        return path
    }

    /// Why the requests a rule takes would depend on how the client signs in, when the sign-in is
    /// the client's (`sign_in: any` at step `signInStep`): a rule may answer every request of an
    /// endpoint, the sign-in's among them, and number token requests (every method ends with one,
    /// but saved tokens, which then do not take the scenario), but not number the requests of an
    /// endpoint some methods call and others do not, nor name a grant only some clients use.
    static func signInDependence(of matcher: RequestMatcher, signInStep: Int) -> String? {
        if let grant = matcher.grant { return SignInMethod.problem(naming: grant, signInStep: signInStep) }
        guard matcher.calls != .every, matcher.endpoint.map(SignInMethod.endpointsOfSomeSignIn.contains) ?? true else {
            return nil
        }
        return
            "numbers the requests \(matcher.endpoint.map { "of the \($0.rawValue) endpoint" } ?? "of every endpoint"), among which are those of step \(signInStep) (sign_in: any), whose number depends on how the client signs in"
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
}
