/// `same_user: throughout` or `same_user: kept`: the user the client holds as signed in, after
/// every step, is the one of its first sign-in: a client never switches users silently (OIDC Core
/// §12.2, §5.3.2). With `throughout`, holding nobody is fine too (a client may end a session it
/// can no longer trust); with `kept`, the user must stay signed in.
struct SameUserCheck: ScenarioCheck {
    static let key = "same_user"

    /// Its rows in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`same_user: throughout`"#,
            passesWhen:
                #"The client reported a signed-in user after some step, and after that step and every later one it holds that user (the same `iss` and `sub`) or nobody: it never switches users silently (OIDC Core §12.2, §5.3.2), though it may end a session it can no longer trust."#
        ),
        CheckDocumentation(
            form: #"`same_user: kept`"#,
            passesWhen:
                #"As `throughout`, but holding nobody fails too: the user of the first sign-in stays signed in after every later step."#
        ),
    ]

    /// Whether holding nobody after a step passes (`throughout`) or fails (`kept`).
    let allowingSignOut: Bool

    static func decode(_ source: CheckSource) -> SameUserCheck? {
        source.word(
            among: ["throughout", "kept"],
            otherwise:
                "same_user must be 'throughout' (never another user; nobody is fine) or 'kept' (the first user stays signed in)"
        ).map { SameUserCheck(allowingSignOut: $0 == "throughout") }
    }

    var kind: String { "identity" }

    var statement: String {
        allowingSignOut
            ? "the signed-in user is never anyone but the one of the first sign-in"
            : "the user of the first sign-in stays signed in, and nobody else ever is"
    }

    /// Who the client held after each step, against the first identity it reported.
    func judge(in context: JudgingContext) -> Judgement {
        let steps = context.transcript.steps
        guard let firstIndex = steps.firstIndex(where: { $0.identity != nil }), let first = steps[firstIndex].identity
        else {
            return Judgement(
                passed: false,
                expected: "a signed-in user after the sign-in",
                observed: "the client never reported a signed-in user"
            )
        }
        let firstRecord = steps[firstIndex]
        let later = steps[firstIndex...]
        let departures = later.filter { record in
            guard let identity = record.identity else { return !allowingSignOut }
            return identity != first
        }
        let observed =
            departures.isEmpty
            ? "\(first) after every step from step \(firstRecord.number) on"
                + (allowingSignOut && later.contains { $0.identity == nil } ? " that left someone signed in" : "")
            : departures.map {
                "after step \($0.number) (\($0.step.action.text)): \($0.identity.map(\.description) ?? "nobody")"
            }
            .joined(separator: "; ")
        return Judgement(
            passed: departures.isEmpty,
            expected: "\(first) (from step \(firstRecord.number))"
                + (allowingSignOut ? " or nobody" : ", after every later step"),
            observed: observed,
            evidence: departures.flatMap { $0.journalSequences.map(Array.init) ?? [] }
        )
    }
}

extension Expectation {
    /// `same_user: throughout` (`allowingSignOut: true`) or `same_user: kept` (`false`).
    public static func sameUser(allowingSignOut: Bool) -> Expectation {
        Expectation(SameUserCheck(allowingSignOut: allowingSignOut))
    }
}
