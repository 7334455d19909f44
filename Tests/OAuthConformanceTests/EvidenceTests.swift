import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// No pass without evidence: a scenario passes only a client that reached what it is about, the
/// run's invariants are judged in every scenario, and a scenario fails only for its title's reason.
@Suite("No pass without evidence")
struct EvidenceTests {
    static func reference(_ change: (inout ClientBehaviour) -> Void, name: String) -> ReferenceClientFactory {
        var behaviour = ClientBehaviour.conforming
        change(&behaviour)
        return ReferenceClientFactory(behaviour: behaviour, name: "reference+\(name)")
    }

    @Test("a client that answers every operation with success and sends nothing passes no built-in scenario")
    func doNothingClientPassesNothing() async throws {
        let scenarios = try Fixtures.builtInScenarios()
        let run = await SuiteRunner().run(scenarios, with: DoNothingClientFactory())
        let passed = run.results.filter { $0.verdict == .passed }.map(\.scenario.id)
        #expect(passed.isEmpty, "passed without evidence: \(passed)")
        #expect(run.results.contains { if case .inconclusive = $0.verdict { true } else { false } })
    }

    @Test(
        "a client that never calls the resource is inconclusive, not passed, where only a call could break a check; the reason says what it did instead",
        arguments: [
            "errors/unsupported-token-type-refused/mac", "errors/unsupported-token-type-on-refresh-refused/mac",
            "refresh/string-expires-in-not-dropped", "refresh/string-expires-in-on-refresh-not-dropped",
        ]
    )
    func neverCallingTheResourceIsInconclusive(id: String) async throws {
        let result = await ScenarioRunner().run(
            try Fixtures.builtInScenario(id),
            with: try Fixtures.defect("never-calls-the-resource").factory
        )
        guard case .inconclusive(let reason) = result.verdict else {
            Issue.record("\(id): expected inconclusive, got \(result.verdict)")
            return
        }
        #expect(reason.contains("resource requests"), "\(reason)")
        #expect(reason.contains("instead: ") && reason.contains("the call was not sent"), "\(reason)")
        #expect(result.checks.allSatisfy { $0.kind == "precondition" || $0.kind == "invariant" })

        let record = ConformanceResult(
            SuiteRun(profile: ReferenceClientFactory().profile, results: [result], startedAt: Date(), wallTime: .zero)
        )
        #expect(record.conforms, "an inconclusive verdict is no failure")
        #expect(record.tally.contains("1 inconclusive"))
        #expect(ConsoleReport().line(for: result).hasPrefix("INCONC"))
        let junit = JUnitReport().render(record).text
        #expect(junit.contains("<skipped message=\"inconclusive: "), "\(junit)")
        #expect(!junit.contains("<failure"))
    }

    @Test(
        "a client that signs in again with the password it kept, dropping its refresh token, fails the scenarios whose titles promise the refresh token survives, by the invariant at MUST",
        arguments: [
            "refresh/failed-refresh-keeps-valid-token", "errors/transport-fault-on-refresh/reset",
            "errors/transport-fault-on-refresh/garbage",
        ]
    )
    func keptPasswordFailsByInvariant(id: String) async throws {
        let result = await ScenarioRunner().run(
            try Fixtures.builtInScenario(id),
            with: try Fixtures.defect("signs-in-again-with-kept-password").factory
        )
        #expect(result.verdict == .failed)
        #expect(result.failingLevel == .must)
        let invariant = result.failedChecks.first { $0.kind == "invariant" }
        #expect(invariant?.statement.hasPrefix("invariant: the user's password is used only by a login step") == true)
        #expect(invariant?.observed.contains("password grant") == true, "\(String(describing: invariant?.observed))")
        // The scenario's own check names the refresh token that did not survive, too.
        #expect(result.failedChecks.contains { $0.statement.contains("presenting refresh_token#1") })
    }

    @Test(
        "a client secret in the authorization URL fails every scenario that authorizes, by the front-channel invariant at MUST, whatever the scenario is about"
    )
    func secretInTheFrontChannelFailsByInvariant() async throws {
        let defect = try Fixtures.defect("client-secret-in-authorization-url").factory
        for id in ["security/authorization-request-uses-pkce-s256-and-state", "security/authorization-denied-surfaced"]
        {
            let result = await ScenarioRunner().run(try Fixtures.builtInScenario(id), with: defect)
            #expect(result.verdict == .failed, "\(id)")
            let invariant = result.failedChecks.first { $0.kind == "invariant" }
            #expect(invariant?.level == .must, "\(id)")
            #expect(
                invariant?.observed.contains("the client secret") == true,
                "\(id): \(result.failedChecks.map(\.summary))"
            )
            #expect(invariant?.observed.contains("parameter client_secret") == true)
        }
    }

    @Test(
        "one refresh and nineteen password grants for twenty concurrent calls fail single-flight: the count takes every token request after sign-in"
    )
    func everyTokenAcquisitionIsCounted() async throws {
        let result = await ScenarioRunner().run(
            try Fixtures.builtInScenario("concurrency/one-refresh-for-concurrent-expired-requests"),
            with: PasswordFallbackClientFactory()
        )
        #expect(result.verdict == .failed)
        let count = result.failedChecks.first {
            $0.statement == "number of token requests (from step 2 on) is exactly 1"
        }
        #expect(count?.observed.hasPrefix("20 ") == true, "\(result.failedChecks.map(\.summary))")
        #expect(result.failedChecks.contains { $0.kind == "invariant" && $0.level == .must })
    }

    @Test(
        "an RFC 6749 §5.2 code surfaced only in the message is surfaced: the scenario fails at POLICY alone, on a check of its own"
    )
    func codeInTheMessageIsSurfaced() async throws {
        let textOnly = Self.reference({ $0.surfacesErrorCodeAsField = false }, name: "code-in-message")
        for id in ["errors/token-error-surfaced/invalid_grant", "errors/refresh-error-surfaced/invalid_scope"] {
            let result = await ScenarioRunner().run(try Fixtures.builtInScenario(id), with: textOnly)
            #expect(result.verdict == .failed, "\(id)")
            #expect(result.failingLevel == .policy, "\(id): \(result.failedChecks.map(\.summary))")
            #expect(result.failedChecks.map(\.kind) == ["error_code"], "\(id)")
            let tolerated = await ScenarioRunner(failOn: .should).run(try Fixtures.builtInScenario(id), with: textOnly)
            #expect(tolerated.verdict != .failed, "\(id): a POLICY finding does not fail --fail-on should")
        }
    }

    @Test(
        "an operation the client lacks skips the scenario wherever that step is judged, and is passed over where it is only a chance to misuse a token"
    )
    func unsupportedOperationsSkipWhereJudged() async throws {
        let noUserinfo = Self.reference({ $0.offersUserinfo = false }, name: "no-userinfo")
        let judged = await ScenarioRunner().run(
            try Fixtures.builtInScenario("oidc/kid-absent-single-key-accepted"),
            with: noUserinfo
        )
        guard case .skipped(let reason) = judged.verdict else {
            Issue.record("expected a skip, got \(judged.verdict)")
            return
        }
        #expect(reason.contains("does not support userinfo"))
        let chance = await ScenarioRunner().run(
            try Fixtures.builtInScenario("oidc/id-token-expired-refused"),
            with: noUserinfo
        )
        #expect(chance.verdict == .passed, "\(chance.failedChecks.map(\.summary))")

        var withoutRefreshOn401 = ReferenceClientFactory()
        withoutRefreshOn401.profile.capabilities.remove(.refreshOn401)
        let revoked = await ScenarioRunner().run(
            try Fixtures.builtInScenario("errors/revoked-grant-leads-to-sign-in"),
            with: withoutRefreshOn401
        )
        #expect(revoked.verdict == .skipped(reason: "the client does not declare refresh_on_401"))
        var tlsOnly = ReferenceClientFactory()
        tlsOnly.profile.capabilities.remove(.idTokenSignature)
        let rotation = await ScenarioRunner().run(
            try Fixtures.builtInScenario("oidc/signing-key-rotation-followed"),
            with: tlsOnly
        )
        #expect(rotation.verdict != .failed)
        if case .skipped = rotation.verdict {} else { Issue.record("expected a skip, got \(rotation.verdict)") }
    }

    @Test(
        "an adapter whose library accepted an ID token without iss reports that claim as null: the client holds a user with it missing, a verdict to judge, not a broken adapter"
    )
    func identityWithAMissingClaim() {
        let accepted = AdapterReply(
            id: 1,
            members: ["ok": .bool(true), "identity": .object(["iss": .null, "sub": .string("user-1")])]
        )
        guard case .success(let identity?) = accepted.identity() else {
            Issue.record("an identity without iss was taken for an adapter fault")
            return
        }
        #expect(identity == SignedInIdentity(issuer: SignedInIdentity.missingClaim, subject: "user-1"))
        let garbled = AdapterReply(
            id: 1,
            members: ["ok": .bool(true), "identity": .object(["iss": .integer(3), "sub": .string("user-1")])]
        )
        if case .success = garbled.identity() { Issue.record("an iss that is a number is the adapter's fault") }
    }

    @Test("a nonce is SHOULD in the code flow (OIDC Core §3.1.2.1 makes it OPTIONAL), wherever a scenario asks for one")
    func nonceLevels() throws {
        let fresh = try Fixtures.builtInScenario("oidc/nonce-fresh-and-unguessable")
        #expect(fresh.level == .should)
        let accepted = try Fixtures.builtInScenario("oidc/sign-in-accepted")
        for (index, expectation) in accepted.expectations.enumerated() {
            guard let request = expectation.check as? RequestCheck, case .parameters(let requirements) = request.demand,
                requirements.contains(where: { $0.name == "nonce" })
            else { continue }
            #expect(accepted.level(ofExpectationAt: index) == .should)
        }
    }

    @Test(
        "twenty concurrent operations that a client serialises get the time of twenty, not of one: a loaded machine does not turn a verdict into an error"
    )
    func concurrentStepsGetTheTimeOfTheirOperations() async throws {
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: concurrency/serialised
            title: Eight concurrent calls
            area: concurrency
            level: SHOULD
            steps:
              - login: password
              - concurrently: { times: 8, step: { request: GET /resource } }
            expect:
              - every_step: succeeds
            """
        )
        // One after another, the eight take 4 s, past the 3 s a single operation may take; the step
        // may take 24 s, room enough for a machine loaded by the other tests.
        let slow = SerialisingClientFactory(pause: .milliseconds(500))
        let result = await ScenarioRunner(stepTimeout: .seconds(3)).run(scenario, with: slow)
        #expect(result.verdict == .passed, "\(result.verdict)")
    }
}
