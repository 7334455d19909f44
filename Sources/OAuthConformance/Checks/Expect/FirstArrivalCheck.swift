/// `first: { endpoint: token, grant: refresh_token }` with `within: { from: …, before: … }`: the
/// first request matching the filter arrives in [from, before) of virtual time.
struct FirstArrivalCheck: ScenarioCheck {
    static let key = "first"

    /// Its row in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form:
                #"`first: { endpoint: token, grant: refresh_token }` with `within: { from: INSTANT, before: INSTANT }`"#,
            passesWhen: #"The first matching request arrives at or after `from` and strictly before `before`."#
        )
    ]
    static let companionKeys = ["within"]

    let filter: RequestFilter
    let from: TimeExpression
    let before: TimeExpression

    static func decode(_ source: CheckSource) -> FirstArrivalCheck? {
        let reader = source.reader
        guard let first = source.mapping(allowedKeys: RequestFilter.keys),
            let withinNode = source.item.required("within", hint: " (e.g. within: { from: …, before: … })"),
            let within = reader.mapping(withinNode, "within", allowedKeys: ["from", "before"]),
            let from = within.required("from").flatMap({ reader.timeExpression($0, "within.from") }),
            let before = within.required("before").flatMap({ reader.timeExpression($0, "within.before") }),
            let filter = RequestFilter.decode(first, in: source), source.holdsForEverySignIn(filter)
        else { return nil }
        return FirstArrivalCheck(filter: filter, from: from, before: before)
    }

    var kind: String { "timing" }

    var countedRequests: [RequestFilter] { [filter] }

    var statement: String { "the first \(filter.described(plural: false)) arrives in [\(from), \(before))" }

    var timeExpressions: [TimeExpression] { [from, before] }

    func judge(in context: JudgingContext) -> Judgement {
        let window: (Duration, Duration)
        switch (from.evaluate(in: context.timeContext), before.evaluate(in: context.timeContext)) {
        case (.success(let start), .success(let end)):
            window = (start, end)
        case (.failure(let problem), _), (_, .failure(let problem)):
            return Judgement(passed: false, expected: "a computable window", observed: problem.message)
        }
        let expected = "t in [\(TimelineText.instant(window.0)), \(TimelineText.instant(window.1)))"
        guard let first = context.entries(matching: filter).first else {
            return Judgement(passed: false, expected: expected, observed: "no such request")
        }
        return Judgement(
            passed: first.at >= window.0 && first.at < window.1,
            expected: expected,
            observed: context.describe(first),
            evidence: [first.sequence]
        )
    }
}

extension Expectation {
    /// `first: { … }` with `within: { from: …, before: … }`.
    public static func firstArrives(
        _ filter: RequestFilter,
        from: TimeExpression,
        before: TimeExpression
    ) -> Expectation {
        Expectation(FirstArrivalCheck(filter: filter, from: from, before: before))
    }
}
