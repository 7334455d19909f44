/// `every_step: succeeds`: every client step ends in success (a 2xx answer for requests).
struct EveryStepCheck: ScenarioCheck {
    static let key = "every_step"

    /// Its row in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`every_step: succeeds`"#,
            passesWhen:
                #"Every step the client carries out (`login`, `authorize`, `sign_in`, `userinfo`, `exchange`, `request`, `restart`) succeeded, counting each operation of a `concurrently` step."#
        )
    ]

    static func decode(_ source: CheckSource) -> EveryStepCheck? {
        source.word(among: ["succeeds"], otherwise: "every_step must be 'succeeds'").map { _ in EveryStepCheck() }
    }

    var kind: String { "outcome" }

    var statement: String { "every step succeeds" }

    func judge(in context: JudgingContext) -> Judgement {
        let failed = context.clientReports.filter { !$0.outcome.succeeded }
        let unanswered = context.transcript.steps.compactMap(context.successWithoutAnswer)
        let observed =
            failed.isEmpty && unanswered.isEmpty
            ? "every step succeeded"
            : (failed.map(context.describe) + unanswered).joined(separator: "; ")
        return Judgement(
            passed: failed.isEmpty && unanswered.isEmpty,
            expected: "success (2xx) for every login and request",
            observed: observed,
            evidence: failed.flatMap { $0.record.journalSequences.map(Array.init) ?? [] }
        )
    }
}

extension Expectation {
    /// `every_step: succeeds`.
    public static let everyStepSucceeds = Expectation(EveryStepCheck())
}
