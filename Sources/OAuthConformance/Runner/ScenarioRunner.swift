import Foundation
import MockProvider

/// The run stage: starts a provider scripted by the scenario, drives a fresh client through the
/// steps on a virtual clock, and judges the transcript.
public struct ScenarioRunner: Sendable {
    /// Real time a single client step may take before the run is abandoned as an error.
    public var stepTimeout: Duration
    /// Real time all the steps of a scenario may take together.
    public var scenarioTimeout: Duration

    /// The least strict level whose failed checks fail the scenario (`--fail-on`); a scenario that
    /// fails only below it is a tolerated failure. POLICY, the default, lets every failure count.
    public var failOn: Level

    public init(
        stepTimeout: Duration = .seconds(20),
        scenarioTimeout: Duration = .seconds(300),
        failOn: Level = .policy
    ) {
        self.stepTimeout = stepTimeout
        self.scenarioTimeout = scenarioTimeout
        self.failOn = failOn
    }

    /// Runs the scenario, then holds the verdict against `failOn` and the profile's expected failures.
    public func run(_ scenario: Scenario, with factory: any ClientFactory) async -> ScenarioResult {
        ExpectedFailures(factory.profile.expectedFailures).apply(to: tolerated(await judge(scenario, with: factory)))
    }

    /// A failure whose failed checks all sit below `failOn` becomes a tolerated failure.
    private func tolerated(_ result: ScenarioResult) -> ScenarioResult {
        guard result.verdict == .failed, let level = result.failingLevel, level.strictness < failOn.strictness else {
            return result
        }
        var held = result
        held.verdict = .toleratedFailure(
            reason:
                "fails at \(level.rawValue) only, below the level the run fails on (--fail-on \(failOn.rawValue.lowercased()))"
        )
        return held
    }

    private func judge(_ scenario: Scenario, with factory: any ClientFactory) async -> ScenarioResult {
        let started = ContinuousClock.now
        func result(_ verdict: Verdict, checks: [CheckResult] = [], transcript: Transcript? = nil) -> ScenarioResult {
            ScenarioResult(
                scenario: scenario,
                verdict: verdict,
                checks: checks,
                transcript: transcript,
                wallTime: ContinuousClock.now - started
            )
        }
        let missing = scenario.requiredCapabilities.filter { !factory.profile.capabilities.contains($0) }
        guard missing.isEmpty else {
            if missing == [.idTokenSignature] {
                return result(
                    .skipped(
                        reason:
                            "a declared gap: the client declares id_token_signature: tls_only, relying on TLS instead of the ID token's signature (OIDC Core §3.1.3.7 step 6)"
                    )
                )
            }
            return result(
                .skipped(reason: "the client does not declare \(missing.map(\.rawValue).joined(separator: ", "))")
            )
        }

        if factory.profile.clientType == .public, let need = scenario.confidentialClientNeed {
            return result(
                .skipped(reason: "the client is public (client_type), with no secret, and in this scenario \(need)")
            )
        }
        if scenario.requiredSignInMethods.contains(where: { !factory.profile.signInMethods.contains($0) }) {
            return result(
                .skipped(reason: "the client does not sign in as a native app (its sign_in lists no native_app)")
            )
        }
        let signIn: SignInMethod?
        switch SignInChoice(for: scenario, declared: factory.profile.signInMethods) {
        case .notNeeded: signIn = nil
        case .method(let method): signIn = method
        case .none(let reason): return result(.skipped(reason: reason))
        }

        var settings = scenario.provider
        if let registered = factory.profile.redirectURI, settings.redirectURIs == ProviderSettings.defaultRedirectURIs {
            settings.redirectURIs = [registered]
        }
        if factory.profile.clientType == .public, settings.clientAuthentication == .clientSecret {
            // Where the scenario registers the client with no method of its own, as the client is.
            settings.clientAuthentication = .publicClient
        }
        if signIn == .device, settings.deviceAuthorization == DeviceAuthorizationPolicy() {
            // Nobody is testing the device flow here: the user approves before the first poll, so
            // the sign-in ends with one token request, as the other methods' do.
            settings.deviceAuthorization.user = .approvesAtPoll(1)
        }
        if scenario.usesClientIDTokenClockSkew {
            guard let skew = factory.profile.idTokenClockSkew else {
                return result(
                    .skipped(
                        reason:
                            "the client declares no ID token clock skew (policies.id_token_clock_skew), which this scenario is written around"
                    )
                )
            }
            settings.clientIDTokenClockSkew = skew
        }
        if scenario.usesClientJWKSRefetchInterval, factory.profile.jwksRefetchInterval == nil {
            return result(
                .skipped(
                    reason:
                        "the client declares no JWKS refetch interval (policies.jwks_refetch_interval), which this scenario is written around"
                )
            )
        }
        let clock = VirtualClock()
        let provider = MockProvider(settings: settings, clock: clock)
        let server: ProviderServer
        do {
            server = try await ProviderServer.start(provider)
        } catch {
            return result(.error("the mock provider could not start: \(error)"))
        }
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oauth-conformance-client-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: storage) }
        do {
            try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        } catch {
            await server.shutdown()
            return result(.error("could not create the client's storage directory: \(error)"))
        }
        let environment = ClientEnvironment(
            endpoints: ProviderEndpoints(
                baseURL: server.baseURL,
                appServerOrigin: server.otherOriginURL,
                issuer: provider.issuer,
                takesPushedAuthorization: settings.pushedAuthorization != nil
            ),
            redirectURI: Self.redirectURI(registered: settings.redirectURIs),
            client: scenario.provider.client,
            user: scenario.provider.user,
            clock: clock,
            storageDirectory: storage,
            caCertificateFile: server.caCertificateFile,
            pinnedPublicKeySHA256: server.pki?.pinnedPublicKeySHA256,
            idTokenSigningAlgorithm: scenario.provider.idTokens.algorithm.rawValue,
            clientAuthentication: settings.clientAuthentication,
            clientAssertionKey: settings.clientAuthentication == .privateKeyJWT
                ? RegisteredClientKey.shared.privateJWK : nil,
            dpopSigningAlgorithms: settings.dpop == nil ? nil : DPoPPolicy.signingAlgorithms,
            isPreRegistered: settings.registration.preRegistered,
            clientIDMetadataDocumentURL: factory.profile.clientIDMetadataURL
        )
        let client: any ClientUnderTest
        do {
            client = try await factory.makeClient(for: environment)
        } catch {
            await server.shutdown()
            return result(.error("the client could not start: \(error)"))
        }

        var execution = StepExecution(
            client: client,
            provider: provider,
            environment: environment,
            profile: factory.profile,
            signIn: signIn,
            stepTimeout: stepTimeout,
            deadline: started + scenarioTimeout,
            scenarioTimeout: scenarioTimeout
        )
        let stop = await execution.perform(
            scenario.steps,
            judgesEveryStep: scenario.expectations.contains(.everyStepSucceeds)
        )
        let output = await client.capturedOutput()
        await client.shutdown()
        // The answer to `end` counts too: an adapter that hangs, crashes or garbles it is broken.
        let endFault: String? = if case .fault = stop { nil } else { await client.fault() }
        await server.shutdown()

        let transcript = Transcript(
            steps: execution.records,
            journal: provider.journal.entries,
            issuedTokens: provider.issuedTokens,
            idTokens: provider.issuedIDTokens,
            profile: factory.profile,
            clientOutput: output,
            mcpServer: server.baseURL + Endpoint.mcp.path
        )
        let evaluator = ExpectationEvaluator(
            transcript: transcript,
            clientSecret: scenario.provider.client.secret,
            userPassword: scenario.provider.user.password
        )
        var checks = evaluator.evaluate(scenario)
        if let endFault {
            return result(.error("ending the scenario (end): \(endFault)"), checks: checks, transcript: transcript)
        }
        switch stop {
        case .fault(let problem)?:
            return result(.error(problem), checks: checks, transcript: transcript)
        case .unsupported(let reason)?:
            return result(.skipped(reason: reason), transcript: transcript)
        case .preconditionUnmet(let step, let token)?:
            checks.insert(evaluator.obtained(token, before: step).at(scenario.level), at: 0)
            return result(.failed, checks: checks + evaluator.invariants(for: scenario), transcript: transcript)
        case nil:
            let (verdict, judged) = Self.verdict(
                checks: checks,
                invariants: evaluator.invariants(for: scenario),
                preconditions: evaluator.preconditions(for: scenario),
                whatTheClientDid: evaluator.whatTheClientDid
            )
            return result(verdict, checks: judged, transcript: transcript)
        }
    }

    /// A failed check is evidence of a defect whatever else happened: the scenario fails, and an
    /// unmet precondition is shown beside it. With every check passed, a precondition that does
    /// not hold means the checks had nothing to judge: inconclusive, with what the client did
    /// instead, and without the checks that passed without evidence.
    static func verdict(
        checks: [CheckResult],
        invariants: [CheckResult],
        preconditions: [CheckResult],
        whatTheClientDid: () -> String
    ) -> (Verdict, [CheckResult]) {
        let unmet = preconditions.filter { !$0.passed }
        if (checks + invariants).contains(where: { !$0.passed }) {
            return (.failed, unmet + checks + invariants)
        }
        if !unmet.isEmpty {
            let missing = unmet.map { "\($0.statement.replacing("precondition: ", with: "")): \($0.observed)" }
            return (
                .inconclusive(reason: missing.joined(separator: "; ") + "; instead: " + whatTheClientDid()),
                unmet + invariants
            )
        }
        return (.passed, checks + invariants)
    }

    /// The redirect URI the client is told to use: the first registered one, on a fixed loopback
    /// port when it is a loopback URI (any port matches, RFC 8252 §7.3; nothing listens there,
    /// since the harness's browser stops at the redirect).
    static func redirectURI(registered: [String]) -> String {
        registered.first ?? ProviderSettings.defaultRedirectURIs[0]
    }
}

/// Carries out a scenario's steps one by one and records what each did.
private struct StepExecution {
    let client: any ClientUnderTest
    let provider: MockProvider
    let environment: ClientEnvironment
    let profile: ClientProfile
    /// How a `sign_in: any` step signs the client in (`SignInChoice`); `nil` when there is none.
    let signIn: SignInMethod?
    let stepTimeout: Duration
    /// When the scenario's real time runs out.
    let deadline: ContinuousClock.Instant
    let scenarioTimeout: Duration
    private(set) var records: [StepRecord] = []

    init(
        client: any ClientUnderTest,
        provider: MockProvider,
        environment: ClientEnvironment,
        profile: ClientProfile,
        signIn: SignInMethod?,
        stepTimeout: Duration,
        deadline: ContinuousClock.Instant,
        scenarioTimeout: Duration
    ) {
        self.client = client
        self.provider = provider
        self.environment = environment
        self.profile = profile
        self.signIn = signIn
        self.stepTimeout = stepTimeout
        self.deadline = deadline
        self.scenarioTimeout = scenarioTimeout
    }

    /// Performs the steps; returns why they stopped before the last one, if they did.
    /// `judgesEveryStep`: the scenario expects every step to succeed.
    mutating func perform(_ steps: [Step], judgesEveryStep: Bool) async -> EarlyStop? {
        for (index, step) in steps.enumerated() {
            let number = index + 1
            let label = "step \(number) (\(step.action.text))"
            let startedAt = provider.clock.elapsed
            let firstSequence = provider.journal.lastSequence + 1
            let outcome: Result<StepResult, StepProblem> = await perform(
                step.action,
                userIsAway: !step.hasUserAtTheBrowser
            )
            let lastSequence = provider.journal.lastSequence
            let sequences = lastSequence >= firstSequence ? firstSequence...lastSequence : nil
            if step.action.signsInTheClientsWay {
                provider.countSignInAsOneRequest(madeRequests: sequences?.count ?? 0)
            }
            switch outcome {
            case .success(let result):
                // Asked after the step, so a user who changed during it shows against the step that changed it.
                let identity = profile.capabilities.contains(.openID) ? await signedInIdentity() : nil
                records.append(
                    StepRecord(
                        number: number,
                        step: step,
                        startedAt: startedAt,
                        result: result,
                        journalSequences: sequences,
                        identity: identity,
                        signedInBy: step.action.signsInTheClientsWay ? signIn : nil
                    )
                )
                if let stop = unsupportedOperation(step, result, label: label, judgesEveryStep: judgesEveryStep) {
                    return stop
                }
            case .failure(let problem):
                if let token = problem.unissued { return .preconditionUnmet(step: label, token: token) }
                return .fault("\(label): \(problem.message)")
            }
            // A client that broke (a crashed or garbled adapter) made the step's outcome meaningless.
            if let fault = await client.fault() {
                return .fault("\(label): \(fault)")
            }
        }
        return nil
    }

    /// One rule for an operation the client lacks (it answered `unsupported`: a library without
    /// the password grant, without a userinfo call): a step that is judged (it states an outcome,
    /// the scenario expects every step to succeed, or it is a login every later step builds on)
    /// cannot be judged on this client, which is a skip, not a failure; an unjudged step, there
    /// only to give the client a chance to misuse what it holds, is passed over. A way of signing
    /// in the profile declares is a promise, not a capability to probe: answered unsupported, it is
    /// a fault.
    private func unsupportedOperation(
        _ step: Step,
        _ result: StepResult,
        label: String,
        judgesEveryStep: Bool
    ) -> EarlyStop? {
        guard
            let failure = result.clientOutcomes.lazy.compactMap(\.failure).first(where: { $0.category == .unsupported })
        else { return nil }
        if case .fails(.unsupported?, _)? = step.expectedOutcome { return nil }
        let operation: ClientOperation
        switch step.action {
        case .client(let single), .concurrently(_, let single): operation = single
        default: return nil
        }
        let lacking: String
        if case .login(let grant) = operation {
            lacking = "the \(grant.rawValue) grant"
        } else if operation == .signInAsTheClientDoes {
            return .fault(
                "\(label): the profile declares sign_in \(signIn?.rawValue ?? "…"), and the client answered unsupported: \(failure.message)"
            )
        } else {
            guard judgesEveryStep || step.expectedOutcome != nil else { return nil }
            lacking = operation.text
        }
        return .unsupported(
            "\(label): the client does not support \(lacking) (it answered unsupported: \(failure.message))"
        )
    }

    /// `userIsAway`: nobody authorizes inside a call (`InCallAuthorization.userIsAway`).
    private func perform(_ action: StepAction, userIsAway: Bool) async -> Result<StepResult, StepProblem> {
        switch action {
        case .client(let operation):
            switch withSavedSession(plan(operation)) {
            case .success(let plan):
                return await withinStepTimeout(operations: plan.realTimeShare, carryOut(plan, userIsAway: userIsAway))
                    .map(StepResult.client)
            case .failure(let problem): return .failure(problem)
            }
        case .concurrently(let times, let operation):
            let plan: OperationPlan
            switch withSavedSession(self.plan(operation)) {
            case .success(let resolved): plan = resolved
            case .failure(let problem): return .failure(problem)
            }
            if case .call(let single) = plan, single.isBatchable {
                let client = self.client
                return await withinStepTimeout(operations: times) {
                    await client.perform(concurrently: Array(repeating: single, count: times))
                }.map(StepResult.clients)
            }
            let operation = carryOut(plan, userIsAway: userIsAway)
            return await withinStepTimeout(operations: times) {
                await withTaskGroup(of: (Int, ClientOutcome).self) { group in
                    for index in 0..<times {
                        group.addTask { (index, await operation()) }
                    }
                    var outcomes: [(Int, ClientOutcome)] = []
                    for await outcome in group { outcomes.append(outcome) }
                    return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
                }
            }.map(StepResult.clients)
        case .advance(let amount):
            provider.clock.advance(by: amount)
            return await clockAdvanced()
        case .advanceTo(let expression):
            let context = TimeContext(
                issuedTokens: provider.issuedTokens,
                clientRefreshWindow: profile.refreshWindow,
                clientJWKSRefetchInterval: profile.jwksRefetchInterval
            )
            switch expression.evaluate(in: context) {
            case .failure(let problem):
                return .failure(
                    StepProblem(message: "cannot compute \(expression): \(problem.message)", unissued: problem.unissued)
                )
            case .success(let instant) where instant < provider.clock.elapsed:
                return .failure(
                    StepProblem(
                        message:
                            "\(expression) is t=\(TimelineText.instant(instant)), already past (now t=\(TimelineText.instant(provider.clock.elapsed)))"
                    )
                )
            case .success(let instant):
                provider.clock.advance(to: instant)
                return await clockAdvanced()
            }
        case .wait(let amount):
            // Real time, for latency scenarios; bounded so that no scenario can stall a CI run.
            let bounded = min(amount, StepAction.longestWait)
            try? await Task.sleep(for: bounded)
            return .success(.waited(bounded))
        case .revoke(let target):
            let revoked = Self.tokens(to: target, among: provider.issuedTokens)
            for token in revoked { provider.revoke(token: token.value) }
            return .success(.revoked(revoked.map(TokenReference.init)))
        case .moveMCPServer(let server):
            // The loader refuses a move to a server the scenario does not give the provider.
            _ = provider.moveMCPServer(to: server)
            return .success(.movedMCPServer(to: server))
        }
    }

    private func signedInIdentity() async -> SignedInIdentity? {
        let client = self.client
        return (try? await withinStepTimeout { await client.perform(.identity).signedIn }.get()) ?? nil
    }

    /// Tells the client the clock moved; the step is the move, whatever the client makes of it.
    private func clockAdvanced() async -> Result<StepResult, StepProblem> {
        let client = self.client
        return await withinStepTimeout { await client.clockAdvanced() }.map { .clockMoved(to: provider.clock.elapsed) }
    }

    private static func tokens(to target: RevocationTarget, among issued: [IssuedToken]) -> [IssuedToken] {
        switch target {
        // The provider's latest: what a user signing out at the provider ends.
        case .accessToken: issued.last { $0.kind == .access && $0.server == .provider }.map { [$0] } ?? []
        case .refreshToken: issued.last { $0.kind == .refresh && $0.server == .provider }.map { [$0] } ?? []
        case .all: issued
        }
    }

    /// A plan that restores a saved session, with the session made: the application's earlier
    /// sign-in, sent to the provider now (`MockProvider.signInForASavedSession`), and its answer
    /// saved as an application saves one. An answer that makes no session is the run's fault:
    /// `SignInChoice` gives saved tokens only to scenarios whose rules leave that answer ordinary.
    private func withSavedSession(_ plan: OperationPlan) -> Result<OperationPlan, StepProblem> {
        guard case .restoredSession(let restore) = plan else { return .success(plan) }
        return SavedSession.from(provider.signInForASavedSession(), receivedAt: provider.clock.now)
            .map { .call(restore($0)) }
            .mapError { StepProblem(message: "the saved session could not be made: \($0.message)") }
    }

    /// The calls that carry the operation out, a request sent to the origin its path belongs to.
    private func plan(_ operation: ClientOperation) -> OperationPlan {
        // `SignInChoice` chose a method before the run whenever a step needs one.
        operation.plan(resourceURL: environment.endpoints.resourceURL, signIn: signIn ?? .password)
    }

    /// The plan as one run of the operation, from its first call to its outcome.
    private func carryOut(_ plan: OperationPlan, userIsAway: Bool) -> @Sendable () async -> ClientOutcome {
        let client = self.client
        let inCall = InCallAuthorization(
            client: client,
            browser: AuthorizationBrowser(caCertificateFile: environment.caCertificateFile),
            userIsAway: userIsAway
        )
        switch plan {
        case .call(let call):
            return { await inCall.outcome(of: call) }
        case .throughBrowser(let start, let complete):
            return { await Self.authorize(inCall, start: start, complete: complete) }
        case .throughLoopback(let begin, let finish):
            let browser = AuthorizationBrowser(caCertificateFile: environment.caCertificateFile)
            return { await Self.nativeSignIn(client, through: browser, begin: begin, finish: finish) }
        case .devicePolling(let start, let poll):
            let clock = provider.clock
            let journal = provider.journal
            return { await Self.deviceSignIn(client, start: start, poll: poll, clock: clock, journal: journal) }
        case .restoredSession:
            // `perform` makes the saved session first (`withSavedSession`), so that a provider
            // answer no session can be made of is the run's fault, not the client's.
            return { .failure(ClientFailure(.protocolViolation, message: "no saved session was made to restore")) }
        }
    }

    /// Bounds on a device authorization's polling, which the client paces: past them the step
    /// ends, whatever the client would do next.
    static let mostDevicePolls = 200
    static let longestDevicePolling = Duration.seconds(24 * 3600)

    /// RFC 8628: the client starts, then polls; after each poll the virtual clock moves by the wait
    /// the client asked for (the user's approval is the provider's, on that clock).
    private static func deviceSignIn(
        _ client: any ClientUnderTest,
        start: ClientCall,
        poll: ClientCall,
        clock: VirtualClock,
        journal: Journal
    ) async -> ClientOutcome {
        let prompt: DevicePrompt
        switch await client.perform(start).devicePrompt(answering: start) {
        case .success(let shown): prompt = shown
        case .failure(let failure): return .failure(failure)
        }
        // The user acts on what the application shows: a code or URI the provider never issued
        // leaves them nothing to approve (RFC 8628 §3.3).
        if let issued = DevicePromptIssued(journal: journal), let mismatch = issued.mismatch(with: prompt) {
            return .failure(ClientFailure(.protocolViolation, message: mismatch))
        }
        let started = clock.elapsed
        polling: for _ in 0..<mostDevicePolls {
            switch await client.perform(poll) {
            case .pollAgain(let wait):
                guard clock.elapsed - started < longestDevicePolling else { break polling }
                clock.advance(by: max(wait, .zero))
                await client.clockAdvanced()
            case let ended:
                switch ended.outcome(answering: poll) {
                case .success(let status, _): return .success(status: status, body: "shown: \(prompt)")
                case let outcome: return outcome
                }
            }
        }
        return .failure(
            ClientFailure(
                .unexpected,
                message:
                    "still polling after \(mostDevicePolls) polls or \(DurationText.format(longestDevicePolling)) of virtual time"
            )
        )
    }

    /// The client names the authorization URL, the browser visits it (the provider plays the
    /// consenting user), and the client gets the redirect. The same for OAuth's `authorize`, OpenID
    /// Connect's `sign_in` and an MCP sign-in; only the client's halves differ. The completion may
    /// need the user again, as any call may (`InCallAuthorization`).
    private static func authorize(
        _ inCall: InCallAuthorization,
        start: ClientCall,
        complete: @Sendable (_ redirectURL: String) -> ClientCall
    ) async -> ClientOutcome {
        let url: String
        switch await inCall.client.perform(start).browserURL(answering: start) {
        case .success(let produced): url = produced
        case .failure(let failure): return .failure(failure)
        }
        switch await InCallAuthorization.visit(url, through: inCall.browser) {
        case .success(let redirect):
            let completion = complete(redirect)
            return await inCall.outcome(of: completion)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// RFC 8252: the client begins its sign-in and asks for a URL to be opened, the browser opens
    /// it and follows the provider's redirect to the client's loopback listener (and nowhere
    /// else), then the client says how its sign-in ended; the step's outcome records what the
    /// listener answered the browser. When the browser cannot hand the redirect over, the client
    /// is not asked to finish: its sign-in would wait for a redirect that never comes.
    private static func nativeSignIn(
        _ client: any ClientUnderTest,
        through browser: AuthorizationBrowser,
        begin: ClientCall,
        finish: ClientCall
    ) async -> ClientOutcome {
        let url: String
        switch await client.perform(begin).openURL(answering: begin) {
        case .success(let produced): url = produced
        case .failure(let failure): return .failure(failure)
        }
        guard LoopbackRedirect.isWebURL(url) else {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message: "the client asked to open \(url.prefix(200)), which is no http(s) URL a browser opens"
                )
            )
        }
        let listenerAnswer: String
        switch await browser.followToLoopback(from: url) {
        case .success(let answer): listenerAnswer = answer
        case .failure(let problem): return .failure(ClientFailure(.protocolViolation, message: problem.message))
        }
        switch await client.perform(finish).outcome(answering: finish) {
        case .success(let status, let body):
            return .success(
                status: status,
                body: body + "; the loopback listener answered the browser " + listenerAnswer
            )
        case let failed: return failed
        }
    }

    /// `operations`: how many operations the step starts at once. They may take as long as one
    /// after another (a client that serialises them, a machine loaded by other jobs), within the
    /// scenario's time: how loaded the machine is must not turn a verdict into an error.
    private func withinStepTimeout<Value: Sendable>(
        operations: Int = 1,
        _ operation: @escaping @Sendable () async -> Value
    ) async -> Result<Value, StepProblem> {
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else {
            return .failure(
                StepProblem(message: "the scenario ran out of its \(DurationText.format(scenarioTimeout)) of real time")
            )
        }
        let stepTimeout = self.stepTimeout * max(1, operations)
        let limit = min(stepTimeout, remaining)
        guard let value = await withDeadline(limit, operation) else {
            return .failure(
                StepProblem(
                    message: limit < stepTimeout
                        ? "the scenario ran out of its \(DurationText.format(scenarioTimeout)) of real time"
                        : "the client did not answer within \(DurationText.format(stepTimeout)) of real time"
                )
            )
        }
        return .success(value)
    }
}

private struct StepProblem: Error {
    let message: String
    /// A token the step is written around that the provider never issued.
    var unissued: TokenReference?
}

/// Why a scenario's steps stopped before the last one.
enum EarlyStop {
    /// The run went wrong (a client that hung or broke, a step that could not be carried out):
    /// no judgement, an error verdict.
    case fault(String)
    /// The client never obtained a token a step is written around: it did something else
    /// instead, which is a failed check.
    case preconditionUnmet(step: String, token: TokenReference)
    /// The client lacks what a step needs (a grant it does not implement): skipped.
    case unsupported(String)
}
