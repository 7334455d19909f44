/// The judgement on one scenario for one client.
public struct ScenarioResult: Sendable {
    public var scenario: Scenario
    public var verdict: Verdict
    public var checks: [CheckResult]
    /// Absent when the scenario never ran (skipped, or the provider could not start).
    public var transcript: Transcript?
    /// Real time the scenario took.
    public var wallTime: Duration
    /// For an expected failure, the probe that confirms its reason without the harness, if the
    /// profile names one.
    public var probe: ProbeCommand? = nil

    public var failedChecks: [CheckResult] { checks.filter { !$0.passed } }

    /// How the client signed in where the sign-in was its own (`sign_in: any`); `nil` for a
    /// scenario that names its sign-in, or one that did not run.
    public var signInMethod: SignInMethod? { transcript?.steps.lazy.compactMap(\.signedInBy).first }

    /// The strictest level among the failed checks: the level the scenario fails at.
    public var failingLevel: Level? { Level.strictest(failedChecks.compactMap(\.level)) }

    /// A scenario the run was stopped before it could judge: an error, since nothing was judged.
    public static func interrupted(_ scenario: Scenario, wasRunning: Bool, wallTime: Duration) -> ScenarioResult {
        let problem = wasRunning ? "interrupted while it was running" : "interrupted before it started"
        return ScenarioResult(
            scenario: scenario,
            verdict: .error(problem),
            checks: [],
            transcript: nil,
            wallTime: wallTime
        )
    }
}

public enum Verdict: Sendable, Equatable {
    case passed
    /// At least one check failed: the client does not conform.
    case failed
    /// The client lacks a capability the scenario requires.
    case skipped(reason: String)
    /// The client never reached the situation the scenario is about (its precondition: the
    /// misbehaviour was delivered, the resource was called, a refresh happened), so its checks
    /// would hold without evidence: no verdict on the behaviour, and the reason says what the
    /// client did instead. The conformance-testing term (TTCN-3's `inconc`).
    case inconclusive(reason: String)
    /// The run itself went wrong (a client that hung, a provider that could not start, a run
    /// interrupted): no judgement.
    case error(String)
    /// Failed, as the client's profile says it will: a known gap, shown but not counted against
    /// the client. The reason is the profile's.
    case expectedFailure(reason: String)
    /// Failed only checks below the level the run fails on (`--fail-on`): shown in every report
    /// with what failed, but not counted against the run. The reason names both levels.
    case toleratedFailure(reason: String)
}
