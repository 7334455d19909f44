import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The steps that go beyond login and request: `authorize` (the harness plays the browser),
/// `restart` (the client keeps what it persisted) and `revoke` (the provider acts alone), and the
/// checks that judge them: `parameters` and `origin`.
@Suite("Authorize, restart and revoke steps")
struct AuthorizeRestartRevokeTests {
    static func scenario(steps: String, expect: String, provider: String = "") -> String {
        """
        conformance: 1
        id: security/inline
        title: t
        area: security
        level: MUST
        \(provider)
        steps:
        \(steps)
        expect:
        \(expect)
        """
    }

    @Test("the YAML and the Swift builder give the same model")
    func yamlEqualsSwift() throws {
        let yaml = try Fixtures.scenario(
            Self.scenario(
                steps: "  - authorize:\n  - restart: {}\n  - revoke: refresh_token",
                expect: """
                      - request: { endpoint: authorize, call: 1 }
                        parameters: { code_challenge_method: S256, state: { min_length: 22 }, code_challenge: present, client_secret: absent }
                      - never: { endpoint: resource, origin: other, carries: credentials }
                    """
            )
        )
        let swift = Scenario(
            id: "security/inline",
            title: "t",
            area: .security,
            level: .must,
            steps: [.authorize, .restart, .revoke(.refreshToken)],
            expectations: [
                .parameters(
                    .authorization,
                    call: 1,
                    [
                        ParameterRequirement("code_challenge_method", .equals("S256")),
                        ParameterRequirement("state", .minimumLength(22)),
                        ParameterRequirement("code_challenge", .present),
                        ParameterRequirement("client_secret", .absent),
                    ]
                ),
                .never(.resource(origin: .otherOrigin), carrying: .credentials),
            ],
            file: yaml.file
        )
        #expect(yaml == swift)
        #expect(yaml.requiredCapabilities == [.authorizationCode, .restart])
    }

    @Test(
        "misused steps and checks are explained where they are written",
        arguments: [
            (
                "  - authorize: now", "  - every_step: succeeds",
                "broken.yaml:8:16: error: 'authorize' takes no value; write '- authorize:' on its own"
            ),
            (
                "  - revoke: refresh_tokens", "  - every_step: succeeds",
                "broken.yaml:8:13: error: 'refresh_tokens' is not a valid revoke; did you mean 'refresh_token'? (allowed: access_token, refresh_token, all)"
            ),
            (
                "  - revoke: all\n    outcome: succeeds", "  - every_step: succeeds",
                "broken.yaml:9:5: error: 'revoke' does not involve the client and has no outcome; 'outcome' goes with login, authorize, sign_in, userinfo, exchange, device_sign_in, native_sign_in, mcp_sign_in, mcp_call, request, restart, concurrently"
            ),
            (
                "  - authorize:",
                "  - request: { endpoint: authorize, call: 1 }\n    parameters: { state: present }\n    carries: { access_token: access_token#1 }",
                "broken.yaml:12:5: error: a request expectation states either 'carries' or 'parameters'; write two expectations"
            ),
            (
                "  - authorize:", "  - never: { origin: elsewhere }",
                "broken.yaml:10:22: error: 'elsewhere' is not a valid origin (allowed: primary, other)"
            ),
        ]
    )
    func misuse(_ steps: String, _ expect: String, _ expected: String) {
        let diagnostics = Fixtures.diagnostics(Self.scenario(steps: steps, expect: expect)).map(\.description)
        #expect(diagnostics.contains(expected), "\(diagnostics)")
    }

    @Test("a client without the authorization code flow is skipped, naming the capability")
    func authorizeNeedsTheCapability() async throws {
        let scenario = try Fixtures.builtInScenario("security/authorization-request-uses-pkce-s256-and-state")
        let result = await ScenarioRunner().run(
            scenario,
            with: ReducedProfileFactory(capabilities: [.proactiveRefresh])
        )
        #expect(result.verdict == .skipped(reason: "the client does not declare authorization_code"))
    }

    @Test("a provider that answers the authorization URL without a redirect fails the step with what the page said")
    func browserStuckOnAPage() async throws {
        let scenario = try Fixtures.scenario(
            Self.scenario(
                steps: "  - authorize:\n    outcome: { error: protocol }",
                expect: "  - never: { endpoint: token }",
                provider: """
                    provider:
                      rules:
                        - when: { endpoint: authorize }
                          respond: { status: 500, body: "consent service down" }
                    """
            )
        )
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
        guard case .client(.failure(let failure)) = result.transcript?.steps.first?.result else {
            Issue.record("the authorize step did not fail")
            return
        }
        #expect(failure.message.contains("500 and no redirect: consent service down"))
    }

    @Test("revoke names what it revoked in the timeline, and the provider refuses those tokens")
    func revokeIsRecorded() async throws {
        let scenario = try Fixtures.scenario(
            Self.scenario(
                steps: "  - login: password\n  - revoke: access_token\n  - request: GET /resource",
                expect: "  - count: { endpoint: resource, status: 401, exactly: 1 }"
            )
        )
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
        #expect(result.step(2)?.result == .revoked([.accessToken(1)]))
    }

    @Test("a restarted reference client holds exactly what it persisted")
    func restartReloadsTheStore() async throws {
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent("restart-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: storage) }
        let provider = MockProvider()
        let server = try await ProviderServer.start(provider)
        let environment = ClientEnvironment(
            endpoints: ProviderEndpoints(baseURL: server.baseURL, appServerOrigin: server.otherOriginURL),
            redirectURI: "http://127.0.0.1/callback",
            client: provider.settings.client,
            user: provider.settings.user,
            clock: provider.clock,
            storageDirectory: storage
        )
        let client = try await ReferenceClientFactory().makeClient(for: environment)
        #expect(await client.perform(.login(.password)).outcome(answering: .login(.password)).succeeded)
        let before = await client.perform(.storedTokens).heldTokens
        #expect(before?.accessToken == provider.issuedTokens.first { $0.kind == .access }?.value)
        #expect(await client.perform(.restart).outcome(answering: .restart).succeeded)
        #expect(await client.perform(.storedTokens) == .storedTokens(before))
        await client.shutdown()
        await server.shutdown()
    }
}
