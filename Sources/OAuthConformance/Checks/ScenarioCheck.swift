/// One form of check a scenario states under `expect:` (and `precondition:`), whole in one type:
/// the key that names it in a file, how it is read from there, the sentence reports state it in,
/// and how a run is judged by it. A new check is a type conforming to this under `Checks/Expect/`,
/// one line in `CheckRegistry`, its key in `Schemas/scenario-1.schema.json`, a row and a runnable
/// example in docs/scenario-language/expect.md (tests ask for both), and a scenario that uses it.
protocol ScenarioCheck: Sendable, Equatable {
    /// The key that states the check in an item of `expect:`, e.g. `count`.
    static var key: String { get }
    /// Keys that go beside the check's own in the same item (`within:` beside `first:`); in the
    /// item of any other check each is an error. None unless the type says otherwise.
    static var companionKeys: [String] { get }
    /// How the reference page states it: a row per form it takes (`CheckDocumentation`).
    static var documentation: [CheckDocumentation] { get }
    /// A complete scenario file that uses the check and passes on the reference client, shown
    /// under the table of the reference page (and run by its tests); nil for a check whose
    /// examples are in the prose of the pages already.
    static var example: String? { get }
    /// The check an item states, or nil once each problem with it is reported where it stands.
    static func decode(_ source: CheckSource) -> Self?

    /// What kind of check this is, for report grouping (`failure type` in JUnit), e.g. `count`.
    var kind: String { get }
    /// The check as a sentence, as reports and `conformance explain` state it.
    var statement: String { get }
    /// The time expressions the check is judged by, which may name what the client declares
    /// (`client.jwks_refetch_interval`). None unless the type says otherwise.
    var timeExpressions: [TimeExpression] { get }
    /// The requests the check counts or numbers, whose number must hold whichever way the client
    /// signed in (`sign_in: any`). None unless the type says otherwise.
    var countedRequests: [RequestFilter] { get }
    /// Whether the check is about the client secret, which only a confidential client has: for a
    /// public one it would hold without evidence. False unless the type says otherwise.
    var isAboutTheClientSecret: Bool { get }
    /// Whether the run makes the statement true: what was expected, what was observed, and the
    /// requests that show it.
    func judge(in context: JudgingContext) -> Judgement
}

extension ScenarioCheck {
    static var companionKeys: [String] { [] }

    static var example: String? { nil }

    var timeExpressions: [TimeExpression] { [] }

    var countedRequests: [RequestFilter] { [] }

    var isAboutTheClientSecret: Bool { false }

    /// The check judged in `context`, as reports show it.
    func result(in context: JudgingContext) -> CheckResult {
        let judgement = judge(in: context)
        return CheckResult(
            kind: kind,
            statement: statement,
            passed: judgement.passed,
            expected: judgement.expected,
            observed: judgement.observed,
            evidence: judgement.evidence
        )
    }

    /// Whether `other` is this same check: of this type, and equal to it.
    func isEqual(to other: any ScenarioCheck) -> Bool {
        (other as? Self) == self
    }
}
