import MockProvider
import Testing
@testable import OAuthConformance

/// A verdict is only worth something if it can go both ways: each built-in scenario passes on the
/// reference client and fails on a client with the bug it exists to catch.
@Suite("The built-in suite judges clients")
struct BuiltInSuiteTests {
    /// A scenario, a defective client it must catch, and the start of the statement of the
    /// expectation that must break. Together the rows make every kind of check fail at least once.
    struct Proof: CustomTestStringConvertible, Sendable {
        let scenario: String
        let defect: String
        let brokenExpectation: String
        var testDescription: String { "\(scenario) catches \(defect)" }
    }

    static let proofs = [
        Proof(scenario: "refresh/proactive-within-declared-window", defect: "no-refresh-leeway",
              brokenExpectation: "the first token request (grant refresh_token) arrives in [expiry(access_token#1) - client.refresh_window"),
        Proof(scenario: "refresh/proactive-within-declared-window", defect: "premature-refresh",
              brokenExpectation: "number of token requests (grant refresh_token) is exactly 1"),
        Proof(scenario: "refresh/proactive-within-declared-window", defect: "ignores-expires-in",
              brokenExpectation: "no resource requests carrying an expired access token"),
        Proof(scenario: "retry/401-on-valid-token-refreshes-once-and-replays", defect: "no-refresh-on-401",
              brokenExpectation: "every step succeeds"),
        Proof(scenario: "retry/401-on-valid-token-refreshes-once-and-replays", defect: "stale-token-replay",
              brokenExpectation: "resource request no. 2 carries access_token#2"),
        Proof(scenario: "refresh/keeps-refresh-token-when-response-omits-it", defect: "drops-absent-refresh-token",
              brokenExpectation: "token request no. 2 (grant refresh_token) carries refresh_token#1"),
        Proof(scenario: "concurrency/one-refresh-for-concurrent-expired-requests", defect: "no-single-flight",
              brokenExpectation: "number of token requests (grant refresh_token) is exactly 1"),
        Proof(scenario: "security/tokens-only-in-authorization-header", defect: "token-in-query",
              brokenExpectation: "no request carrying an access token in the query string"),
        Proof(scenario: "security/tokens-only-in-authorization-header", defect: "refresh-token-to-resource",
              brokenExpectation: "no resource requests carrying a refresh token"),
        Proof(scenario: "errors/token-error-surfaced/invalid_grant", defect: "retries-token-errors",
              brokenExpectation: "number of token requests is at most 1"),
        Proof(scenario: "errors/token-error-surfaced/invalid_scope", defect: "swallows-error-codes",
              brokenExpectation: "step 1 (login password) outcome"),
        Proof(scenario: "security/authorization-request-uses-pkce-s256-and-state", defect: "no-pkce",
              brokenExpectation: "authorize request no. 1 has response_type = code, code_challenge of at least 43 characters"),
        Proof(scenario: "security/authorization-request-uses-pkce-s256-and-state", defect: "pkce-plain",
              brokenExpectation: "authorize request no. 1 has"),
        Proof(scenario: "security/authorization-response-state-refused/forged", defect: "no-state-check",
              brokenExpectation: "number of token requests (grant authorization_code) is exactly 1"),
        Proof(scenario: "security/authorization-request-uses-pkce-s256-and-state", defect: "predictable-state",
              brokenExpectation: "authorize request no. 1 has"),
        Proof(scenario: "security/authorization-response-issuer-checked/attacker.example", defect: "no-iss-check",
              brokenExpectation: "no token requests (grant authorization_code)"),
        Proof(scenario: "security/resource-redirect-gets-no-credentials/307", defect: "follows-redirects-with-credentials",
              brokenExpectation: "no requests (at the other origin) carrying any credential"),
        Proof(scenario: "tls/untrusted-certificate-refused/self_signed", defect: "accepts-any-certificate",
              brokenExpectation: "no request"),
        Proof(scenario: "refresh/rotated-refresh-token-survives-restart", defect: "rotated-refresh-token-not-persisted",
              brokenExpectation: "token request no. 2 (grant refresh_token) carries refresh_token#2"),
    ]

    @Test("the reference client passes every built-in scenario")
    func referencePasses() async throws {
        let run = await SuiteRunner().run(try Fixtures.builtInScenarios(), with: ReferenceClientFactory())
        #expect(run.results.count >= 3)
        for result in run.results {
            #expect(result.verdict == .passed, "\(result.scenario.id): \(result.failedChecks.map(\.summary))")
        }
    }

    @Test("a defective client fails the scenario, naming the broken expectation", arguments: proofs)
    func defectIsCaught(_ proof: Proof) async throws {
        let scenario = try Fixtures.builtInScenario(proof.scenario)
        let result = await ScenarioRunner().run(scenario, with: try Fixtures.defect(proof.defect).factory)
        #expect(result.verdict == .failed)
        let broken = result.failedChecks.filter { $0.statement.hasPrefix(proof.brokenExpectation) }
        #expect(!broken.isEmpty, "failed checks were: \(result.failedChecks.map(\.statement))")
        let failureMessage = result.failedChecks.map(\.summary).joined(separator: "; ")
        #expect(failureMessage.contains(proof.brokenExpectation))
    }

    @Test("every kind of check is shown failing by some proof")
    func everyCheckKindCanFail() async throws {
        var failedKinds = Set<String>()
        for proof in Self.proofs {
            let result = await ScenarioRunner().run(try Fixtures.builtInScenario(proof.scenario), with: try Fixtures.defect(proof.defect).factory)
            failedKinds.formUnion(result.failedChecks.filter { $0.statement.hasPrefix(proof.brokenExpectation) }.map(\.kind))
        }
        let usedKinds = Set(try Fixtures.builtInScenarios().flatMap(\.expectations).map(\.kind))
        #expect(usedKinds.isSubset(of: failedKinds), "never shown failing: \(usedKinds.subtracting(failedKinds))")
    }

    @Test("every defective client in the catalogue is caught by the built-in suite")
    func everyDefectIsCaught() async throws {
        let scenarios = try Fixtures.builtInScenarios()
        for defect in DefectiveClient.catalogue {
            let run = await SuiteRunner().run(scenarios, with: defect.factory)
            #expect(run.failedCount > 0, "\(defect.name) (\(defect.bug)) passed the whole suite")
            #expect(Self.proofs.contains { $0.defect == defect.name }, "\(defect.name) has no proof row")
        }
    }
}
