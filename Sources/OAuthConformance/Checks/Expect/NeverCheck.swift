import MockProvider

/// `never: { endpoint: resource, carries: refresh_token }`: no request matches the filter (and,
/// with `carries`, none of those carries that).
struct NeverCheck: ScenarioCheck {
    static let key = "never"

    /// Its rows in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`never: { endpoint: resource }`"#,
            passesWhen: #"No request matches."#
        ),
        CheckDocumentation(
            form: #"`never: { endpoint: resource, bearer: none }`"#,
            passesWhen: #"No resource request went out without a bearer token."#
        ),
        CheckDocumentation(
            form: #"`never: { presents: access_token#1 }`"#,
            passesWhen:
                #"No request carries that token anywhere: after a refused sign-in, nothing of its response is used."#
        ),
    ]

    let filter: RequestFilter
    let carrying: ForbiddenCarriage?

    static func decode(_ source: CheckSource) -> NeverCheck? {
        guard let never = source.mapping(allowedKeys: RequestFilter.keys + ["carries"]) else { return nil }
        let carrying = never["carries"].map {
            source.reader.enumeration($0, "never.carries", as: ForbiddenCarriage.self)
        }
        guard carrying != .some(nil), let filter = RequestFilter.decode(never, in: source) else { return nil }
        return NeverCheck(filter: filter, carrying: carrying.flatMap { $0 })
    }

    var kind: String { "never" }

    var isAboutTheClientSecret: Bool { carrying == .clientSecret || carrying == .clientSecretInQuery }

    var statement: String {
        (filter == RequestFilter() ? "no request" : "no \(filter)") + (carrying.map { " \($0.phrase)" } ?? "")
    }

    func judge(in context: JudgingContext) -> Judgement {
        let sighting = carrying.map(context.sighter(for:))
        let offending = context.entries(matching: filter).compactMap { entry -> (JournalEntry, String)? in
            guard let sighting else { return (entry, "") }
            return sighting(entry).map { (entry, " \($0)") }
        }
        let observed = offending.prefix(8).map { "\(context.describe($0.0))\($0.1)" }.joined(separator: ", ")
        return Judgement(
            passed: offending.isEmpty,
            expected: "none",
            observed: offending.isEmpty
                ? "none" : "\(offending.count) (\(observed)\(offending.count > 8 ? ", …" : ""))",
            evidence: offending.map(\.0.sequence)
        )
    }
}

extension Expectation {
    /// `never: { … }`, or with `carries:` `.never(.resource(), carrying: .refreshToken)`.
    public static func never(_ filter: RequestFilter, carrying: ForbiddenCarriage? = nil) -> Expectation {
        Expectation(NeverCheck(filter: filter, carrying: carrying))
    }
}
