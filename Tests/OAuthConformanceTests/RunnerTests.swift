import MockProvider
import Testing

@testable import OAuthConformance

@Suite("Running scenarios")
struct RunnerTests {
    static let invalidGrantOnLogin = """
        conformance: 1
        id: errors/invalid-grant-on-login
        title: A password grant refused with invalid_grant is surfaced as authorization required
        area: errors
        level: MUST
        spec: [RFC 6749 §5.2]
        provider:
          rules:
            - when: { endpoint: token, grant: password }
              error: { code: invalid_grant, description: wrong password }
        steps:
          - login: password
            outcome: { error: { category: authorization_required, oauth_error: EXPECTED_CODE } }
        expect:
          - count: { endpoint: token, status: 400, exactly: 1 }
          - never: { endpoint: resource }
        """

    @Test("a step's stated outcome is checked: the right error passes")
    func statedOutcomePasses() async throws {
        let scenario = try Fixtures.scenario(
            Self.invalidGrantOnLogin.replacingOccurrences(of: "EXPECTED_CODE", with: "invalid_grant")
        )
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
    }

    @Test("a step's stated outcome is checked: another error code fails, saying which step")
    func statedOutcomeFails() async throws {
        let scenario = try Fixtures.scenario(
            Self.invalidGrantOnLogin.replacingOccurrences(of: "EXPECTED_CODE", with: "invalid_client")
        )
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(result.verdict == .failed)
        let check = try #require(result.failedChecks.first)
        #expect(check.statement == "step 1 (login password) outcome")
        #expect(check.expected.contains("invalid_client"))
        #expect(check.observed.contains("invalid_grant"))
    }

    @Test("a client that lacks a required capability is skipped with the reason")
    func missingCapabilitySkips() async throws {
        let scenario = try Fixtures.builtInScenario("retry/401-on-valid-token-refreshes-once-and-replays")
        let result = await ScenarioRunner().run(
            scenario,
            with: ReducedProfileFactory(capabilities: [.proactiveRefresh])
        )
        #expect(result.verdict == .skipped(reason: "the client does not declare refresh_on_401"))
    }

    @Test("a client that hangs becomes an error verdict naming the step, not a hung harness")
    func hangingClientIsAnError() async throws {
        let scenario = try Fixtures.builtInScenario("refresh/keeps-refresh-token-when-response-omits-it")
        let result = await ScenarioRunner(stepTimeout: .milliseconds(200)).run(scenario, with: HangingClientFactory())
        guard case .error(let problem) = result.verdict else {
            Issue.record("expected an error verdict, got \(result.verdict)")
            return
        }
        #expect(problem.contains("step 1 (sign_in any)"))
        #expect(problem.contains("did not answer"))
    }

    @Test("advance_to an instant already past is an error that says when")
    func advanceToThePast() async throws {
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: refresh/past
            title: t
            area: refresh
            level: POLICY
            steps:
              - login: password
              - advance: 2h
              - advance_to: expiry(access_token#1)
            expect:
              - every_step: succeeds
            """
        )
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(
            result.verdict
                == .error(
                    "step 3 (advance to expiry(access_token#1)): expiry(access_token#1) is t=+1h, already past (now t=+2h)"
                )
        )
    }
}
