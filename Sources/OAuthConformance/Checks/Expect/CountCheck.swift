/// `count: { endpoint: token, grant: refresh_token, exactly: 1 }`: the number of journaled
/// requests matching the filter.
struct CountCheck: ScenarioCheck {
    static let key = "count"

    /// Its row in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`count: { endpoint: token, grant: refresh_token, exactly: 1 }`"#,
            passesWhen: #"The number of matching requests is `exactly`, `at_most` or `at_least` the number."#
        )
    ]

    let filter: RequestFilter
    let bound: CountBound

    static func decode(_ source: CheckSource) -> CountCheck? {
        guard let count = source.mapping(allowedKeys: RequestFilter.keys + CountBound.keys),
            let bound = CountBound.decode(count, in: source)
        else { return nil }
        guard let filter = RequestFilter.decode(count, in: source), source.holdsForEverySignIn(filter) else {
            return nil
        }
        return CountCheck(filter: filter, bound: bound)
    }

    var kind: String { "count" }

    var countedRequests: [RequestFilter] { [filter] }

    var statement: String { "number of \(filter) is \(bound)" }

    func judge(in context: JudgingContext) -> Judgement {
        let matches = context.entries(matching: filter)
        return Judgement(
            passed: bound.admits(matches.count),
            expected: bound.description,
            observed: "\(matches.count)\(context.listing(matches))",
            evidence: matches.map(\.sequence)
        )
    }
}

extension Expectation {
    /// `count: { …, exactly: 1 }`: `.count(.token(grant: .refreshToken), .exactly(1))`.
    public static func count(_ filter: RequestFilter, _ bound: CountBound) -> Expectation {
        Expectation(CountCheck(filter: filter, bound: bound))
    }
}
