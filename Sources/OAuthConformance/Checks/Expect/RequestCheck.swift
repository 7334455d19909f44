import MockProvider
import Yams

/// `request: { endpoint: token, grant: refresh_token, call: 2 }` with `carries:` or `parameters:`
/// beside it: what the `call`-th request matching the filter carries.
struct RequestCheck: ScenarioCheck {
    /// What the request must have.
    enum Demand: Sendable, Equatable {
        /// `carries: { refresh_token: refresh_token#1 }`: this token, an access token as its bearer
        /// credential, a refresh token in its `refresh_token` form field.
        case carries(CarriedToken)
        /// `parameters: { state: { min_length: 22 } }`: query or form parameters as required.
        case parameters([ParameterRequirement])
    }

    static let key = "request"

    /// Its rows in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form:
                #"`request: { endpoint: token, grant: refresh_token, call: 2 }` with `carries: { refresh_token: refresh_token#1 }`"#,
            passesWhen:
                #"The 2nd matching request carries that token: an access token as its bearer credential, a refresh token in its `refresh_token` form field. The key names the kind: `access_token: app_access_token#1` and `refresh_token: app_refresh_token#1` name the app server's."#
        ),
        CheckDocumentation(
            form:
                #"`request: { endpoint: authorize, call: 1 }` with `parameters: { code_challenge_method: S256, state: { min_length: 22 }, code_challenge: present, client_secret: absent, scope: { includes: openid } }`"#,
            passesWhen:
                #"The 1st matching request has each query or form parameter (or member of a JSON body, as a registration request's client metadata: a list of strings reads as a space-separated list) as stated: that exact value, `present` (non-empty), `absent`, `mcp_server` (the canonical URI of the MCP server, `<origin>/mcp`, as RFC 8707's `resource` names it), at least `min_length` characters, or, with `includes`, a space-separated list (as `scope` is, RFC 6749 §3.3) that holds that word. A `request` item states either `carries` or `parameters`."#
        ),
    ]
    static let companionKeys = ["carries", "parameters"]

    let filter: RequestFilter
    /// Which matching request, from 1.
    let call: Int
    let demand: Demand

    static func decode(_ source: CheckSource) -> RequestCheck? {
        let reader = source.reader
        guard let request = source.mapping(allowedKeys: RequestFilter.keys + ["call"]),
            let call = request.required("call", hint: " (which matching request, from 1)").flatMap({
                reader.int($0, "call", in: 1...1_000_000)
            }),
            let filter = RequestFilter.decode(request, in: source), source.holdsForEverySignIn(filter)
        else { return nil }
        if let parametersNode = source.item["parameters"] {
            if let carries = source.item.entries["carries"] {
                reader.error(
                    "a request expectation states either 'carries' or 'parameters'; write two expectations",
                    at: carries.key
                )
                return nil
            }
            return parameterRequirements(parametersNode, reader: reader).map {
                RequestCheck(filter: filter, call: call, demand: .parameters($0))
            }
        }
        guard
            let carriesNode = source.item.required(
                "carries",
                hint: " (e.g. carries: { access_token: access_token#2 }, or parameters: { state: present })"
            ),
            let token = carriedToken(carriesNode, reader: reader)
        else { return nil }
        return RequestCheck(filter: filter, call: call, demand: .carries(token))
    }

    var countedRequests: [RequestFilter] { [filter] }

    var kind: String {
        switch demand {
        case .carries: "carries"
        case .parameters: "parameters"
        }
    }

    var statement: String {
        switch demand {
        case .carries(let carried):
            "\(filter.described(plural: false, number: call)) carries \(carried.token)"
        case .parameters(let requirements):
            "\(filter.described(plural: false, number: call)) has "
                + requirements.map(\.description).joined(separator: ", ")
        }
    }

    func judge(in context: JudgingContext) -> Judgement {
        switch demand {
        case .carries(let carried): judge(carrying: carried.token, in: context)
        case .parameters(let requirements): judge(requirements, in: context)
        }
    }

    private func judge(carrying reference: TokenReference, in context: JudgingContext) -> Judgement {
        guard let expectedToken = reference.resolve(in: context.transcript.issuedTokens) else {
            return Judgement(passed: false, expected: reference.description, observed: "\(reference) was never issued")
        }
        let expected = "\(reference) (\(expectedToken.value))"
        return judgeTheCall(expected: expected, in: context) { entry in
            let presented =
                reference.kind == .access ? entry.request.bearerToken : entry.request.formField("refresh_token")
            return Judgement(
                passed: presented == expectedToken.value,
                expected: expected,
                observed: presented.map(context.name(ofToken:)).map { "\($0) at \(context.describe(entry))" }
                    ?? "no \(reference.kind.rawValue) at \(context.describe(entry))",
                evidence: [entry.sequence]
            )
        }
    }

    private func judge(_ requirements: [ParameterRequirement], in context: JudgingContext) -> Judgement {
        let expected = requirements.map(\.description).joined(separator: ", ")
        return judgeTheCall(expected: expected, in: context) { entry in
            let values = requirements.map { requirement in
                entry.request.queryItems.first { $0.name == requirement.name }?.value
                    ?? entry.request.formField(requirement.name) ?? entry.request.jsonMember(requirement.name)
            }
            let observed = zip(requirements, values).map { requirement, value in
                "\(requirement.name) " + (value.map { "= \($0.isEmpty ? "(empty)" : $0)" } ?? "absent")
            }
            return Judgement(
                passed: zip(requirements, values).allSatisfy {
                    $0.admits($1, mcpServer: context.transcript.mcpServer)
                },
                expected: expected,
                observed: observed.joined(separator: ", ") + " at \(context.describe(entry))",
                evidence: [entry.sequence]
            )
        }
    }

    /// The `call`-th matching request judged by `judging`, or a failure that says how few matched.
    private func judgeTheCall(
        expected: String,
        in context: JudgingContext,
        _ judging: (JournalEntry) -> Judgement
    ) -> Judgement {
        let matches = context.entries(matching: filter)
        guard matches.count >= call else {
            return Judgement(
                passed: false,
                expected: expected,
                observed: "only \(matches.count) such requests\(context.listing(matches))",
                evidence: matches.map(\.sequence)
            )
        }
        return judging(matches[call - 1])
    }

    // MARK: Decoding what the request must have

    /// `parameters: { code_challenge_method: S256, state: { min_length: 22 }, code_challenge: present, client_secret: absent }`.
    private static func parameterRequirements(_ node: Node, reader: YAMLReader) -> [ParameterRequirement]? {
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
                        allowedKeys: ["min_length", "includes", "excludes"]
                    ),
                    let key = condition.exactlyOne(of: ["min_length", "includes", "excludes"])
                else { return nil }
                if key == "includes" || key == "excludes" {
                    guard let word = condition[key].flatMap({ reader.string($0, key) }) else { return nil }
                    requirements.append(
                        ParameterRequirement(name, key == "includes" ? .includes(word) : .excludes(word))
                    )
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
                    case "mcp_server": .mcpServer
                    default: .equals(text)
                    }
                requirements.append(ParameterRequirement(name, condition))
            }
        }
        return requirements
    }

    /// `carries: { access_token: access_token#2 }`: the key names where the token travels.
    private static func carriedToken(_ node: Node, reader: YAMLReader) -> CarriedToken? {
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

extension Expectation {
    /// `request: { …, call: N }` with `carries:`: `.carries(.token(grant: .refreshToken), call: 2, token: CarriedToken(.refreshToken(1)))`.
    public static func carries(_ filter: RequestFilter, call: Int, token: CarriedToken) -> Expectation {
        Expectation(RequestCheck(filter: filter, call: call, demand: .carries(token)))
    }

    /// `request: { …, call: N }` with `parameters:`.
    public static func parameters(
        _ filter: RequestFilter,
        call: Int,
        _ requirements: [ParameterRequirement]
    ) -> Expectation {
        Expectation(RequestCheck(filter: filter, call: call, demand: .parameters(requirements)))
    }
}
