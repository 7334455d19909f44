import MockProvider

/// `distinct: { endpoint: authorize, parameter: nonce }`: every request matching the filter
/// carries the parameter (query or form), and no two carry the same value: a `nonce` or `state`
/// fresh for each request.
struct DistinctCheck: ScenarioCheck {
    static let key = "distinct"

    /// Its row in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`distinct: { endpoint: authorize, parameter: nonce }`"#,
            passesWhen:
                #"At least two requests match, each has the query or form parameter (non-empty), and no two have the same value: a `nonce` or `state` of its own for each request. The request filter keys go beside `parameter`."#
        )
    ]

    let filter: RequestFilter
    let parameter: String

    static func decode(_ source: CheckSource) -> DistinctCheck? {
        guard let distinct = source.mapping(allowedKeys: RequestFilter.keys + ["parameter"]),
            let parameter = distinct.required("parameter", hint: " (e.g. parameter: nonce)").flatMap({
                source.reader.string($0, "distinct.parameter")
            }),
            let filter = RequestFilter.decode(distinct, in: source)
        else { return nil }
        return DistinctCheck(filter: filter, parameter: parameter)
    }

    var kind: String { "freshness" }

    var statement: String { "every \(filter.described(plural: false)) has a \(parameter) of its own" }

    func judge(in context: JudgingContext) -> Judgement {
        let matches = context.entries(matching: filter)
        let values = matches.map { entry in
            entry.request.queryItems.first { $0.name == parameter }?.value ?? entry.request.formField(parameter)
        }
        let missing = zip(matches, values).filter { $0.1?.isEmpty ?? true }.map(\.0)
        var seen: [String: JournalEntry] = [:]
        var repeated: [(JournalEntry, JournalEntry)] = []
        for (entry, value) in zip(matches, values) {
            guard let value, !value.isEmpty else { continue }
            if let first = seen[value] { repeated.append((first, entry)) } else { seen[value] = entry }
        }
        var observed: [String] = []
        if matches.count < 2 {
            observed.append("only \(matches.count) such request\(matches.count == 1 ? "" : "s"), too few to compare")
        }
        observed += missing.map { "no \(parameter) at \(context.describe($0))" }
        observed += repeated.map { "\(context.describe($0.1)) repeats the \(parameter) of \(context.describe($0.0))" }
        return Judgement(
            passed: matches.count >= 2 && missing.isEmpty && repeated.isEmpty,
            expected: "a \(parameter) in each, never one twice",
            observed: observed.isEmpty
                ? "\(matches.count) requests, \(matches.count) different values" : observed.joined(separator: "; "),
            evidence: matches.map(\.sequence)
        )
    }
}

extension Expectation {
    /// `distinct: { …, parameter: nonce }`: `.distinctValues(.authorization, parameter: "nonce")`.
    public static func distinctValues(_ filter: RequestFilter, parameter: String) -> Expectation {
        Expectation(DistinctCheck(filter: filter, parameter: parameter))
    }
}
