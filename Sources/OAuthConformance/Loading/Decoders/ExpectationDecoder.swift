import MockProvider
import Yams

/// Decodes `expect:`: what a conforming client must have done.
struct ExpectationDecoder {
    let reader: YAMLReader
    /// How many steps the scenario has, which `from_step` may name; unchecked when nil.
    var stepCount: Int? = nil

    static let expectationForms = [
        "every_step", "count", "request", "first", "order", "never", "error_messages", "distinct", "same_user",
        "spacing", "polling", "client_errors",
    ]

    /// The expectations, with the level of each that states its own (`level: SHOULD` beside it)
    /// and the capabilities of each that is judged only for clients declaring them
    /// (`requires: [proactive_refresh]` beside it), by index.
    func decode(_ node: Node) -> (expectations: [Expectation], levels: [Int: Level], requirements: [Int: [Capability]])?
    {
        guard let items = reader.sequence(node, "expect") else { return nil }
        if items.isEmpty { reader.error("expect is empty; a scenario that expects nothing cannot fail", at: node) }
        let expectations = items.map(expectation)
        var levels: [Int: Level?] = [:]
        var requirements: [Int: [Capability]] = [:]
        for (index, item) in items.enumerated() {
            guard case .mapping(let mapping) = item else { continue }
            if let node = mapping["level"] { levels[index] = reader.enumeration(node, "level", as: Level.self) }
            if let node = mapping["requires"] { requirements[index] = reader.capabilities(node, "requires") }
        }
        guard !expectations.contains(where: { $0 == nil }), !levels.values.contains(where: { $0 == nil }) else {
            return nil
        }
        return (expectations.compactMap { $0 }, levels.compactMapValues { $0 }, requirements)
    }

    /// `precondition:`: what must have happened for the checks to mean anything, in the words of
    /// `expect:`. A precondition has no level of its own: one that does not hold makes the
    /// verdict inconclusive, whatever the level.
    func decodePreconditions(_ node: Node) -> [Expectation]? {
        guard let items = reader.sequence(node, "precondition") else { return nil }
        if items.isEmpty { reader.error("precondition is empty; leave it out instead", at: node) }
        for item in items {
            guard case .mapping(let mapping) = item else { continue }
            for key in ["level", "requires"] {
                if let node = mapping[key] {
                    reader.error(
                        "a precondition has no '\(key)': one that does not hold makes the verdict inconclusive",
                        at: node
                    )
                    return nil
                }
            }
        }
        let preconditions = items.map(expectation)
        guard !preconditions.contains(where: { $0 == nil }) else { return nil }
        return preconditions.compactMap { $0 }
    }

    private func expectation(_ node: Node) -> Expectation? {
        guard
            let item = reader.mapping(
                node,
                "an expectation",
                allowedKeys: Self.expectationForms + ["carries", "parameters", "within", "level", "requires"]
            ),
            let form = item.exactlyOne(of: Self.expectationForms), let body = item[form]
        else { return nil }
        for key in ["carries", "parameters"] where form != "request" {
            if let entry = item.entries[key] { reader.error("'\(key)' goes with 'request'", at: entry.key) }
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
            guard
                let count = reader.mapping(
                    body,
                    "count",
                    allowedKeys: Self.filterKeys + Self.boundKeys
                ),
                let bound = countBound(count)
            else { return nil }
            return requestFilter(count).map { .count($0, bound) }
        case "client_errors":
            // `client_errors: { at_least: 1 }`
            guard let errors = reader.mapping(body, "client_errors", allowedKeys: Self.boundKeys),
                let bound = countBound(errors)
            else { return nil }
            return .clientErrors(bound)
        case "request":
            guard let request = reader.mapping(body, "request", allowedKeys: Self.filterKeys + ["call"]),
                let call = request.required("call", hint: " (which matching request, from 1)").flatMap({
                    reader.int($0, "call", in: 1...1_000_000)
                }),
                let filter = requestFilter(request)
            else { return nil }
            if let parametersNode = item["parameters"] {
                if let carries = item.entries["carries"] {
                    reader.error(
                        "a request expectation states either 'carries' or 'parameters'; write two expectations",
                        at: carries.key
                    )
                    return nil
                }
                return parameterRequirements(parametersNode).map { .parameters(filter, call: call, $0) }
            }
            guard
                let carriesNode = item.required(
                    "carries",
                    hint: " (e.g. carries: { access_token: access_token#2 }, or parameters: { state: present })"
                ),
                let token = carriedToken(carriesNode)
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
        case "order":
            return order(body)
        case "error_messages":
            guard reader.string(body, "error_messages") == "reveal_no_credentials" else {
                reader.error("error_messages must be 'reveal_no_credentials'", at: body)
                return nil
            }
            return .errorsRevealNoCredentials
        case "distinct":
            guard let distinct = reader.mapping(body, "distinct", allowedKeys: Self.filterKeys + ["parameter"]),
                let parameter = distinct.required("parameter", hint: " (e.g. parameter: nonce)").flatMap({
                    reader.string($0, "distinct.parameter")
                }),
                let filter = requestFilter(distinct)
            else { return nil }
            return .distinctValues(filter, parameter: parameter)
        case "spacing":
            // `spacing: { endpoint: jwks, from_call: 2, at_least: client.jwks_refetch_interval }`.
            guard
                let spacing = reader.mapping(
                    body,
                    "spacing",
                    allowedKeys: Self.filterKeys + ["from_call", "at_least"]
                ),
                let gap = spacing.required("at_least", hint: " (e.g. at_least: 5s)").flatMap({
                    reader.timeExpression($0, "spacing.at_least")
                }),
                let filter = requestFilter(spacing)
            else { return nil }
            let fromCall = spacing["from_call"].map { reader.int($0, "from_call", in: 1...1_000_000) } ?? 1
            guard let fromCall else { return nil }
            return .spacing(filter, fromCall: fromCall, atLeast: gap)
        case "polling":
            guard reader.string(body, "polling") == "paced" else {
                reader.error(
                    "polling must be 'paced' (device-code polls no sooner than the interval, 5 s more after each slow_down)",
                    at: body
                )
                return nil
            }
            return .devicePollingPaced
        case "same_user":
            switch reader.string(body, "same_user") {
            case "throughout"?: return .sameUser(allowingSignOut: true)
            case "kept"?: return .sameUser(allowingSignOut: false)
            default:
                reader.error(
                    "same_user must be 'throughout' (never another user; nobody is fine) or 'kept' (the first user stays signed in)",
                    at: body
                )
                return nil
            }
        default:
            guard let never = reader.mapping(body, "never", allowedKeys: Self.filterKeys + ["carries"]) else {
                return nil
            }
            let carrying = never["carries"].map { reader.enumeration($0, "never.carries", as: ForbiddenCarriage.self) }
            guard carrying != .some(nil), let filter = requestFilter(never) else { return nil }
            return .never(filter, carrying: carrying.flatMap { $0 })
        }
    }

    /// `order: [{ endpoint: token, grant: refresh_token }, { endpoint: resource }]`.
    private func order(_ node: Node) -> Expectation? {
        guard let items = reader.sequence(node, "order") else { return nil }
        guard items.count >= 2 else {
            reader.error(
                "order needs at least two request filters, e.g. [{ endpoint: token }, { endpoint: resource }]",
                at: node
            )
            return nil
        }
        let filters = items.map { item in
            reader.mapping(item, "an order item", allowedKeys: Self.filterKeys).flatMap(requestFilter)
        }
        guard filters.allSatisfy({ $0 != nil }) else { return nil }
        let decoded = filters.compactMap { $0 }
        for (index, filter) in decoded.enumerated() where decoded[..<index].contains(filter) {
            // Both would pick the same first request, which cannot come before itself.
            reader.error(
                "order lists \(filter.described(plural: false)) twice; the check could never pass",
                at: items[index]
            )
            return nil
        }
        return .order(decoded)
    }

    static let boundKeys = ["exactly", "at_most", "at_least"]

    /// `exactly: 2`, `at_most: 3` or `at_least: 1`.
    private func countBound(_ mapping: CheckedMapping) -> CountBound? {
        guard let key = mapping.exactlyOne(of: Self.boundKeys),
            let limit = mapping[key].flatMap({ reader.int($0, key, in: 0...1_000_000) })
        else { return nil }
        return switch key {
        case "exactly": .exactly(limit)
        case "at_most": .atMost(limit)
        default: .atLeast(limit)
        }
    }

    static let filterKeys = ["endpoint", "grant", "status", "origin", "bearer", "presents", "from_step", "during_step"]

    /// `parameters: { code_challenge_method: S256, state: { min_length: 22 }, code_challenge: present, client_secret: absent }`.
    private func parameterRequirements(_ node: Node) -> [ParameterRequirement]? {
        guard case .mapping(let mapping) = node, !mapping.isEmpty else {
            reader.error(
                "parameters must map parameter names to a value, present, absent or { min_length: N }",
                at: node
            )
            return nil
        }
        var requirements: [ParameterRequirement] = []
        for (key, value) in mapping {
            guard let name = reader.string(key, "parameter name") else { return nil }
            switch value {
            case .mapping:
                guard
                    let condition = reader.mapping(
                        value,
                        "parameters.\(name)",
                        allowedKeys: ["min_length", "includes"]
                    ),
                    let key = condition.exactlyOne(of: ["min_length", "includes"])
                else { return nil }
                if key == "includes" {
                    guard let word = condition["includes"].flatMap({ reader.string($0, "includes") }) else {
                        return nil
                    }
                    requirements.append(ParameterRequirement(name, .includes(word)))
                    continue
                }
                guard let length = condition["min_length"].flatMap({ reader.int($0, "min_length", in: 1...4096) })
                else { return nil }
                requirements.append(ParameterRequirement(name, .minimumLength(length)))
            default:
                guard let text = reader.string(value, "parameters.\(name)") else { return nil }
                let condition: ParameterRequirement.Condition =
                    switch text {
                    case "present": .present
                    case "absent": .absent
                    default: .equals(text)
                    }
                requirements.append(ParameterRequirement(name, condition))
            }
        }
        return requirements
    }

    private func requestFilter(_ mapping: CheckedMapping) -> RequestFilter? {
        var filter = RequestFilter()
        var valid = true
        if let node = mapping["endpoint"] {
            filter.endpoint = reader.enumeration(node, "endpoint", as: Endpoint.self)
            valid = valid && filter.endpoint != nil
        }
        if let node = mapping["grant"] {
            filter.grant = reader.grant(node, "grant")
            valid = valid && filter.grant != nil
        }
        if let node = mapping["status"] {
            filter.status = reader.int(node, "status", in: 100...599)
            valid = valid && filter.status != nil
        }
        if let node = mapping["origin"] {
            let origin = reader.enumeration(node, "origin", as: RequestOrigin.self)
            filter.origin = origin?.listener
            valid = valid && origin != nil
        }
        if let node = mapping["bearer"] {
            filter.bearer = bearerFilter(node)
            valid = valid && filter.bearer != nil
        }
        if let node = mapping["presents"] {
            filter.presents = reader.presentedCredential(node)
            valid = valid && filter.presents != nil
        }
        if mapping["from_step"] != nil, let during = mapping.entries["during_step"] {
            reader.error("a filter takes from_step or during_step, not both", at: during.key)
            valid = false
        }
        for key in ["from_step", "during_step"] {
            guard let node = mapping[key] else { continue }
            let step = reader.int(node, key, in: 1...(stepCount ?? 10_000))
            filter.steps = step.map { key == "from_step" ? $0...Int.max : $0...$0 }
            valid = valid && step != nil
        }
        return valid ? filter : nil
    }

    /// `bearer: access_token#1`, or `bearer: none` for a request without one.
    private func bearerFilter(_ node: Node) -> BearerFilter? {
        if node.scalar?.string == "none" { return BearerFilter.none }
        guard let reference = reader.tokenReference(node, "bearer") else { return nil }
        guard reference.kind == .access else {
            reader.error("bearer must name an access token (access_token#N) or none, not \(reference)", at: node)
            return nil
        }
        return .token(reference)
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

/// `origin:` in a request filter, as scenarios write it.
enum RequestOrigin: String, CaseIterable {
    case primary
    /// The provider's second origin, where its redirects point.
    case other

    var listener: Listener { self == .primary ? .primary : .otherOrigin }
}
