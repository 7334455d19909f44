import MockProvider

/// The judging stage: each expectation of a scenario, and each step's stated outcome, becomes a
/// check with what was expected, what was observed, and the requests that show it. Each
/// expectation judges itself (its type under `Expect/`); this gives it the run to judge.
public struct ExpectationEvaluator: Sendable {
    public let transcript: Transcript
    /// The client secret the secret checks look for; `evaluate` takes it from the scenario.
    public var clientSecret: String
    /// The user's password, which no error may quote; `evaluate` takes it from the scenario.
    public var userPassword: String
    /// The client's registration made before the scenario, if any; `evaluate` takes it from the
    /// scenario.
    public var preRegisteredClient: ClientCredentials?

    public init(
        transcript: Transcript,
        clientSecret: String = ProviderSettings().client.secret,
        userPassword: String = ProviderSettings().user.password
    ) {
        self.transcript = transcript
        self.clientSecret = clientSecret
        self.userPassword = userPassword
    }

    /// What every check is judged against.
    var context: JudgingContext {
        JudgingContext(
            transcript: transcript,
            clientSecret: clientSecret,
            userPassword: userPassword,
            preRegisteredClient: preRegisteredClient
        )
    }

    /// Every check of the scenario, each at its level: a step's stated outcome at the scenario's,
    /// an expectation at its own or the scenario's; an expectation that requires a capability the
    /// client does not declare is left out.
    public func evaluate(_ scenario: Scenario) -> [CheckResult] {
        var judge = self
        judge.clientSecret = scenario.provider.client.secret
        judge.userPassword = scenario.provider.user.password
        judge.preRegisteredClient = scenario.provider.registration.preRegistered ? scenario.provider.client : nil
        let outcomes = judge.stepOutcomeChecks().map { $0.at(scenario.level) } + judge.codeFieldChecks()
        let declared = transcript.profile.capabilities
        let expectations = scenario.expectations.enumerated().compactMap { index, expectation -> CheckResult? in
            guard (scenario.expectationRequirements[index] ?? []).allSatisfy(declared.contains) else { return nil }
            return judge.check(expectation).at(scenario.level(ofExpectationAt: index))
        }
        return outcomes + expectations
    }

    public func check(_ expectation: Expectation) -> CheckResult {
        expectation.check.result(in: context)
    }
}
