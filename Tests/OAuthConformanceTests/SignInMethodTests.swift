import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The sign-in is the client's: a scenario about what comes after it (`sign_in: any`) judges a
/// client whichever way it signs in, and holds for every way, so a conforming client passes it
/// with each of them.
@Suite("The sign-in is the client's")
struct SignInMethodTests {
    /// The areas whose scenarios are about what comes after a sign-in.
    static let areasAfterSignIn: Set<Area> = [.refresh, .retry, .errors, .concurrency]

    static let builtInSuite: [Scenario] = {
        let loaded = ScenarioLoader.load(paths: [PackageFiles.scenarios.path])
        return loaded.scenarios
    }()

    /// The scenarios of those areas that do not test a grant themselves: every one that signs in
    /// the client's own way. Those that name a grant (the client credentials grant's own
    /// scenarios) are about that grant, and so are those whose sign-in must fail (an error
    /// answer to the sign-in's token request).
    static var scenariosAfterSignIn: [Scenario] {
        builtInSuite.filter { scenario in
            areasAfterSignIn.contains(scenario.area)
                && !scenario.steps.contains { step in
                    switch step.action {
                    case .client(let operation), .concurrently(_, let operation):
                        operation.namesItsSignIn
                            || (operation == .signInAsTheClientDoes && step.expectedOutcome?.isFailure == true)
                    default: false
                    }
                }
        }
    }

    /// The reference client declaring one method alone, registered as `clientType`.
    static func referenceClient(
        signingInBy method: SignInMethod,
        as clientType: ClientType = .confidential
    ) -> ReferenceClientFactory {
        var factory = ReferenceClientFactory()
        factory.profile.signInMethods = [method]
        factory.profile.clientType = clientType
        return factory
    }

    @Test(
        "the reference client, signing in one way alone (by the device grant or as a native app, as a public client), is judged on at least 80% of the refresh, retry, errors and concurrency scenarios that test no grant, and passes every one",
        arguments: [
            (SignInMethod.authorizationCode, ClientType.confidential), (.nativeApp, .public), (.openID, .confidential),
            (.device, .public), (.mcpDiscovery, .confidential),
        ]
    )
    func judgedWhicheverWayItSignsIn(method: SignInMethod, clientType: ClientType) async {
        let scenarios = Self.scenariosAfterSignIn
        #expect(scenarios.count >= 60, "the areas hold \(scenarios.count) such scenarios")
        let run = await SuiteRunner(jobs: 2).run(
            scenarios,
            with: Self.referenceClient(signingInBy: method, as: clientType)
        )
        let judged = run.results.filter { $0.verdict == .passed || $0.verdict == .failed }
        #expect(
            judged.count * 100 >= scenarios.count * 80,
            "judged on \(judged.count) of \(scenarios.count); skipped: \(run.results.filter { if case .skipped = $0.verdict { true } else { false } }.map { "\($0.scenario.id): \($0.verdict)" })"
        )
        for result in run.results where result.verdict != .passed {
            if case .skipped = result.verdict { continue }
            Issue.record(
                "\(result.scenario.id) signing in by \(method.rawValue): \(result.verdict) \(result.failedChecks.map(\.statement))"
            )
        }
        for result in judged {
            #expect(
                result.signInMethod == method,
                "\(result.scenario.id) says it signed in by \(String(describing: result.signInMethod))"
            )
        }
    }

    /// Saved tokens are what an application kept from its earlier sign-in, which the harness sends
    /// for it: a scenario whose rules make that answer odd (an unreadable lifetime, a token type
    /// other than Bearer, an altered body) is about reading the sign-in's token response, which a
    /// client given saved tokens never does. Each such oddity is staged on a refresh response too,
    /// the token response every client reads.
    @Test(
        "the reference client, given saved tokens alone, is judged on at least 80% of the scenarios that test no grant and passes every one; the rest are about reading the sign-in's token response, and skip saying so"
    )
    func judgedOnSavedTokens() async {
        let scenarios = Self.scenariosAfterSignIn
        let run = await SuiteRunner(jobs: 2).run(scenarios, with: Self.referenceClient(signingInBy: .tokens))
        var judged = 0
        for result in run.results {
            switch result.verdict {
            case .passed:
                judged += 1
                #expect(result.signInMethod == .tokens, "\(result.scenario.id)")
            case .skipped(let reason):
                #expect(
                    reason.contains("a rule scripts the sign-in's token response beyond what a saved session holds"),
                    "\(result.scenario.id): \(reason)"
                )
            default:
                Issue.record(
                    "\(result.scenario.id) given saved tokens: \(result.verdict) \(result.failedChecks.map(\.statement))"
                )
            }
        }
        #expect(judged * 100 >= scenarios.count * 80, "judged on \(judged) of \(scenarios.count)")
    }

    @Test(
        "saved tokens are those of a sign-in the harness sends for the application: journaled, numbered, answered by the rules, marked, and never held against the client"
    )
    func savedSessionSignInIsTheHarnesss() async throws {
        let scenario = try #require(
            Self.builtInSuite.first { $0.id == "refresh/tokens-dying-before-stated-expiry" }
        )
        let result = await ScenarioRunner().run(scenario, with: Self.referenceClient(signingInBy: .tokens))
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
        let journal = try #require(result.transcript?.journal)
        let first = try #require(journal.first)
        #expect(first.request.madeByTheHarness)
        #expect(first.grant == .password && first.appliedRule != nil, "the scenario's rule answered it")
        #expect(journal.dropFirst().allSatisfy { !$0.request.madeByTheHarness })
        // The session states the lifetime the rule scripted (2 h), not the token's real one (2 min):
        // the client learns of the early death from the resource, as the scenario intends.
        let lines = TimelineText.lines(for: try #require(result.transcript))
        #expect(lines.contains { $0.contains("#1 POST /token") && $0.contains("(sent by the harness") })
        let session = try SavedSession.from(first.response, receivedAt: Date(timeIntervalSince1970: 0)).get()
        #expect(session.expiresAt == Date(timeIntervalSince1970: 7200))
    }

    @Test(
        "an answer no application would save as it stands makes no session",
        arguments: [
            (#"{"access_token":"a","token_type":"Bearer","expires_in":"3600"}"#, "expires_in is \"3600\""),
            (#"{"access_token":"a","token_type":"Bearer","expires_in":0}"#, "expires_in is 0"),
            (#"{"access_token":"a","token_type":"Bearer","refresh_token":null}"#, "refresh_token is null"),
            (#"{"token_type":"Bearer"}"#, "no access_token"),
            (#"{"error":"invalid_grant"}"#, "no access_token"),
        ]
    )
    func unsaveableAnswers(body: String, problem: String) {
        let response = ProviderResponse(status: 200, headers: [], body: body)
        guard case .failure(let found) = SavedSession.from(response, receivedAt: Date()) else {
            Issue.record("\(body) made a session")
            return
        }
        #expect(found.message.contains(problem), "\(found.message)")
    }

    /// Why the built-in scenario `id` is skipped for the reference client signing in by `method`
    /// alone; `nil` (and an issue recorded) when it is not skipped.
    static func skipReason(_ id: String, signingInBy method: SignInMethod) async throws -> String? {
        let scenario = try #require(builtInSuite.first { $0.id == id })
        let result = await ScenarioRunner().run(scenario, with: referenceClient(signingInBy: method))
        guard case .skipped(let reason) = result.verdict else {
            Issue.record("\(id) signing in by \(method.rawValue): \(result.verdict), not skipped")
            return nil
        }
        return reason
    }

    @Test("a scenario whose provider scripts an odd answer to the sign-in does not take saved tokens")
    func savedTokensReadNoTokenResponse() async throws {
        let reason = try await Self.skipReason("refresh/odd-expires-in/soon", signingInBy: .tokens)
        #expect(reason?.contains("scripts the sign-in's token response") == true)
        var both = ReferenceClientFactory()
        both.profile.signInMethods = [.tokens, .password]
        let scenario = try #require(Self.builtInSuite.first { $0.id == "refresh/odd-expires-in/soon" })
        let fallback = await ScenarioRunner().run(scenario, with: both)
        #expect(fallback.verdict == .passed)
        #expect(fallback.signInMethod == .password)
    }

    @Test(
        "client credentials sign in no user: a client that has nothing else is skipped where a refresh token or the user's session may be needed, saying so, and judged where a token alone is (a proof, a nonce, a 401)"
    )
    func clientCredentialsIsNoUsersSignIn() async throws {
        for id in ["refresh/keeps-refresh-token-when-response-omits-it", "dpop/bound-refresh-token-used-with-same-key"]
        {
            let reason = try await Self.skipReason(id, signingInBy: .clientCredentials)
            #expect(reason?.contains("signs in no user") == true, "\(id)")
        }
        for id in [
            "dpop/bound-token-presented-with-proof", "dpop/token-endpoint-nonce-retried-once",
            "retry/401-storm-bounded",
        ] {
            let scenario = try #require(Self.builtInSuite.first { $0.id == id })
            let result = await ScenarioRunner().run(
                scenario,
                with: Self.referenceClient(signingInBy: .clientCredentials)
            )
            #expect(result.verdict == .passed, "\(id): \(result.verdict)")
            #expect(result.signInMethod == .clientCredentials, "\(id)")
        }
    }

    @Test(
        "a public client is skipped where only a confidential one can be judged: the client credentials grant, HS256 ID tokens, checks on the secret",
        arguments: [
            ("refresh/client-credentials-asks-again-after-expiry", "client credentials grant"),
            ("oidc/sign-in-with-registered-algorithm-accepted/hs256", "HS256"),
            ("security/client-secret-never-reaches-resource", "what becomes of the client secret"),
        ]
    )
    func publicClientSkipsConfidentialScenarios(id: String, why: String) async throws {
        var publicClient = ReferenceClientFactory()
        publicClient.profile.clientType = .public
        let scenario = try #require(Self.builtInSuite.first { $0.id == id })
        let result = await ScenarioRunner().run(scenario, with: publicClient)
        guard case .skipped(let reason) = result.verdict else {
            Issue.record("\(id): \(result.verdict), not skipped")
            return
        }
        #expect(reason.contains("the client is public") && reason.contains(why), "\(reason)")
        let confidential = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(confidential.verdict == .passed)
    }

    @Test("a client that declares a way of signing in and answers it unsupported is an error, not a skip")
    func declaredMethodAnsweredUnsupported() async throws {
        let scenario = try #require(Self.builtInSuite.first { $0.id == "retry/401-storm-bounded" })
        let result = await ScenarioRunner().run(scenario, with: UnsupportedEverythingFactory(signingInBy: .tokens))
        guard case .error(let problem) = result.verdict else {
            Issue.record("\(result.verdict)")
            return
        }
        #expect(problem.hasPrefix("step 1 (sign_in any): the profile declares sign_in tokens"), "\(problem)")
    }
}

extension ClientOperation {
    /// Whether the operation is one particular way of signing in, which a scenario about that
    /// grant names.
    fileprivate var namesItsSignIn: Bool {
        switch self {
        case .login(let grant): grant != .refreshToken
        case .authorize, .nativeSignIn, .mcpSignIn, .signIn, .deviceSignIn, .restoreSession: true
        case .request, .mcpCall, .restart, .userinfo, .exchange, .signInAsTheClientDoes: false
        }
    }
}

/// A client that implements nothing, declaring one way of signing in.
private struct UnsupportedEverythingFactory: ClientFactory {
    let signingInBy: SignInMethod

    var profile: ClientProfile {
        ClientProfile(
            name: "unsupported",
            version: "1",
            capabilities: [],
            signInMethods: [signingInBy],
            refreshWindow: nil
        )
    }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        UnsupportedEverythingClient()
    }
}

private struct UnsupportedEverythingClient: ClientUnderTest {
    func perform(_ call: ClientCall) async -> ClientAnswer { call.unsupported }
    func shutdown() async {}
}
