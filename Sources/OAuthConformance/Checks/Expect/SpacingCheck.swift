/// `spacing: { endpoint: jwks, from_call: 2, at_least: client.jwks_refetch_interval }`:
/// consecutive requests matching the filter, from the `from_call`-th on, arrive at least this far
/// apart in virtual time: JWKS refetches no closer than the client declares.
struct SpacingCheck: ScenarioCheck {
    static let key = "spacing"

    /// Its row in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`spacing: { endpoint: jwks, from_call: 2, at_least: client.jwks_refetch_interval }`"#,
            passesWhen:
                #"Consecutive matching requests, from the `from_call`-th on (default 1), arrive at least `at_least` apart in virtual time; `at_least` is a time expression, and `client.jwks_refetch_interval` is what the client's profile declares (`policies.jwks_refetch_interval`; a scenario that names it is skipped for a client that declares none)."#
        )
    ]

    let filter: RequestFilter
    /// The first of the matching requests the spacing is measured from, from 1.
    let fromCall: Int
    let atLeast: TimeExpression

    static func decode(_ source: CheckSource) -> SpacingCheck? {
        let reader = source.reader
        guard let spacing = source.mapping(allowedKeys: RequestFilter.keys + ["from_call", "at_least"]),
            let gap = spacing.required("at_least", hint: " (e.g. at_least: 5s)").flatMap({
                reader.timeExpression($0, "spacing.at_least")
            }),
            let filter = RequestFilter.decode(spacing, in: source), source.holdsForEverySignIn(filter)
        else { return nil }
        let fromCall = spacing["from_call"].map { reader.int($0, "from_call", in: 1...1_000_000) } ?? 1
        guard let fromCall else { return nil }
        return SpacingCheck(filter: filter, fromCall: fromCall, atLeast: gap)
    }

    var kind: String { "spacing" }

    var countedRequests: [RequestFilter] { [filter] }

    var statement: String { "\(filter) from no. \(fromCall) on arrive at least \(atLeast) apart" }

    var timeExpressions: [TimeExpression] { [atLeast] }

    /// Consecutive matches from the `fromCall`-th on are at least `atLeast` apart; the first pair
    /// that is closer is what the report shows.
    func judge(in context: JudgingContext) -> Judgement {
        let gap: Duration
        switch atLeast.evaluate(in: context.timeContext) {
        case .success(let computed): gap = computed
        case .failure(let problem):
            return Judgement(passed: false, expected: "a computable spacing", observed: problem.message)
        }
        let spaced = Array(context.entries(matching: filter).dropFirst(fromCall - 1))
        let expected = "at least \(DurationText.format(gap)) between consecutive ones"
        let close = zip(spaced, spaced.dropFirst()).filter { $1.at - $0.at < gap }
        guard let (earlier, later) = close.first else {
            return Judgement(
                passed: true,
                expected: expected,
                observed: "\(spaced.count) from no. \(fromCall) on, none closer",
                evidence: spaced.map(\.sequence)
            )
        }
        let apart = DurationText.format(later.at - earlier.at)
        return Judgement(
            passed: false,
            expected: expected,
            observed: "\(context.describe(earlier)) and \(context.describe(later)), \(apart) apart"
                + (close.count > 1 ? " (\(close.count) such pairs)" : ""),
            evidence: close.flatMap { [$0.sequence, $1.sequence] }
        )
    }
}

extension Expectation {
    /// `spacing: { …, from_call: 2, at_least: … }`.
    public static func spacing(_ filter: RequestFilter, fromCall: Int, atLeast: TimeExpression) -> Expectation {
        Expectation(SpacingCheck(filter: filter, fromCall: fromCall, atLeast: atLeast))
    }
}
