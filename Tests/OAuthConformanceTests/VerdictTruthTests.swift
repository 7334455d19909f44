import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// A verdict must be right about clients nobody here wrote: each check at its own level, a run
/// that breaks only on the levels it is told to, a client that never got where a scenario assumes
/// failed rather than errored, a crash never taken for a refusal, a missing grant skipped.
@Suite("Truthful verdicts")
struct VerdictTruthTests {
    /// The reference client with the loop bound google-auth ships: two refreshes and three calls
    /// per request. Bounded, so conforming at MUST; more than the one refresh good practice asks.
    static let twoRoundsPer401: ReferenceClientFactory = {
        var behaviour = ClientBehaviour.conforming
        behaviour.replayRoundsPer401 = 2
        return ReferenceClientFactory(behaviour: behaviour, name: "reference+two-rounds")
    }()

    @Test(
        "a bounded 401 loop of two rounds fails the storm scenario at SHOULD only; --fail-on must tolerates it, visibly"
    )
    func checksHaveTheirOwnLevels() async throws {
        let scenario = try Fixtures.builtInScenario("retry/401-storm-bounded")
        let judged = await ScenarioRunner().run(scenario, with: Self.twoRoundsPer401)
        #expect(judged.verdict == .failed)
        #expect(judged.failingLevel == .should)
        #expect(judged.failedChecks.map(\.level) == [.should, .should], "\(judged.failedChecks.map(\.summary))")
        let mustChecks = judged.checks.filter { $0.level == .must }
        #expect(!mustChecks.isEmpty && mustChecks.allSatisfy { $0.passed })

        let tolerated = await ScenarioRunner(failOn: .must).run(scenario, with: Self.twoRoundsPer401)
        guard case .toleratedFailure(let reason) = tolerated.verdict else {
            Issue.record("expected a tolerated failure, got \(tolerated.verdict)")
            return
        }
        #expect(reason == "fails at SHOULD only, below the level the run fails on (--fail-on must)")
        #expect(tolerated.failedChecks.count == 2, "the failed checks stay in the result")

        // An unbounded loop breaks the MUST bound, which no --fail-on tolerates.
        let unbounded = await ScenarioRunner(failOn: .must).run(
            scenario,
            with: try Fixtures.defect("unbounded-401-loop").factory
        )
        #expect(unbounded.verdict == .failed)
        #expect(unbounded.failingLevel == .must)
    }

    @Test("a tolerated failure is shown with its failed checks and level in every report, and does not fail the run")
    func toleratedFailureInEveryReport() async throws {
        let scenario = try Fixtures.builtInScenario("retry/401-storm-bounded")
        let run = await SuiteRunner(scenarioRunner: ScenarioRunner(failOn: .must)).run(
            [scenario],
            with: Self.twoRoundsPer401
        )
        #expect(run.conforms)
        let result = ConformanceResult(run)
        #expect(result.tally == "0 passed, 0 failed, 0 skipped, 0 errors, 1 tolerated failures")
        let console = ConsoleReport()
        let line = console.line(for: run.results[0])
        #expect(line.hasPrefix("WARN   retry/401-storm-bounded"))
        #expect(
            console.details(for: run.results[0]).contains {
                $0.contains("✗ number of token requests (from step 2 on) is at most 1 [SHOULD]")
            }
        )
        let json = JSONReport.render(result)
        #expect(json.contains(#""verdict" : "tolerated_failure""#))
        #expect(json.contains(#""level" : "SHOULD""#))
        let markdown = MarkdownReport().render([result])
        #expect(markdown.contains("### Failures below --fail-on"))
        #expect(markdown.contains("⚠️ WARN (SHOULD) <code>retry/401-storm-bounded</code>"))
        let html = MatrixPage().render([result])
        #expect(html.contains(#"class="cell tolerated_failure""#))
        #expect(html.contains("WARN"))
        let junit = JUnitReport().render(result).text
        #expect(!junit.contains("<failure"), "a tolerated failure does not break the build")
        #expect(
            junit.contains("fails at: SHOULD (fails at SHOULD only, below the level the run fails on (--fail-on must))")
        )
        #expect(junit.contains("✗ number of resource requests is at most 2 [SHOULD]"))
    }

    @Test(
        "conformance run --fail-on must: a SHOULD-only failure exits 0 and still says what failed; without it, exit 1"
    )
    func failOnCommandLine() async throws {
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let junit = scratch.appendingPathComponent("junit.xml").path
        let arguments = [
            "run", "--defect", "no-single-flight", "--junit", junit,
            "Scenarios/concurrency/one-refresh-for-concurrent-expired-requests.yaml",
        ]
        let strict = try await ProcessRun.conformance(arguments)
        #expect(strict.status == 1, "\(strict.standardOutput)")
        #expect(strict.standardOutput.contains("FAIL   concurrency/one-refresh-for-concurrent-expired-requests"))
        let lenient = try await ProcessRun.conformance(arguments + ["--fail-on", "must"])
        #expect(lenient.status == 0, "\(lenient.standardOutput)\(lenient.standardError)")
        #expect(lenient.standardOutput.contains("WARN   concurrency/one-refresh-for-concurrent-expired-requests"))
        #expect(
            lenient.standardOutput.contains("✗ number of token requests (from step 2 on) is exactly 1 [SHOULD]")
        )
        #expect(lenient.standardOutput.contains("0 errors, 1 tolerated failures"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(!xml.contains("<failure"))
        #expect(xml.contains("fails at: SHOULD"))
        let wrong = try await ProcessRun.conformance(arguments + ["--fail-on", "may"])
        #expect(wrong.status == 64 || wrong.status == 2, "a usage error: \(wrong.standardError)")
    }

    @Test("level: beside an expectation sets that check's level; a wrong one is reported where it is written")
    func levelDecoding() throws {
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: retry/levels
            title: t
            area: retry
            level: MUST
            steps: [{ login: password }]
            expect:
              - count: { endpoint: token, at_most: 2 }
              - count: { endpoint: token, at_most: 1 }
                level: SHOULD
            """
        )
        #expect(scenario.level(ofExpectationAt: 0) == .must)
        #expect(scenario.level(ofExpectationAt: 1) == .should)
        let problems = Fixtures.diagnostics(
            """
            conformance: 1
            id: retry/levels
            title: t
            area: retry
            level: MUST
            steps: [{ login: password }]
            expect:
              - count: { endpoint: token, at_most: 1 }
                level: SHOLD
            """
        ).map(\.description)
        #expect(
            problems == [
                "broken.yaml:9:12: error: 'SHOLD' is not a valid level; did you mean 'SHOULD'? (allowed: MUST, SHOULD, POLICY)"
            ]
        )
    }

    @Test(
        "a client that never obtains the token a step is written around fails, and the check says what it did instead"
    )
    func unreachedPreconditionIsAFailure() async throws {
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: retry/precondition
            title: After a 401 the client refreshes, and the new token is used until just before its expiry
            area: retry
            level: SHOULD
            provider:
              rules:
                - when: { endpoint: resource, call: 1 }
                  respond: { status: 401, headers: { WWW-Authenticate: 'Bearer error="invalid_token"' } }
            steps:
              - login: password
              - request: GET /resource
              - advance_to: expiry(access_token#2) - 1s
              - request: GET /resource
            expect:
              - every_step: succeeds
            """
        )
        #expect(await ScenarioRunner().run(scenario, with: ReferenceClientFactory()).verdict == .passed)
        let result = await ScenarioRunner().run(scenario, with: try Fixtures.defect("no-refresh-on-401").factory)
        #expect(result.verdict == .failed)
        let precondition = try #require(result.failedChecks.first)
        #expect(precondition.kind == "precondition")
        #expect(
            precondition.statement
                == "the client obtains access_token#2, which step 3 (advance to expiry(access_token#2) - 1s) is written around"
        )
        #expect(
            precondition.observed.hasPrefix(
                "access_token#2 was never issued (only access_token#1); token requests: 1 (#1 t=+0s password → 200)"
            )
        )
        #expect(precondition.observed.contains("step 2 (request GET /resource) failed: authorization_required"))
        #expect(precondition.level == .should)
    }

    @Test(
        "an error of category unexpected (a crash) is not the refusal a step asks for; a named category still matches"
    )
    func crashIsNotARefusal() async throws {
        func verdict(_ failure: ClientFailure, expecting outcome: String) async throws -> Verdict {
            let scenario = try Fixtures.scenario(
                """
                conformance: 1
                id: errors/refusal
                title: t
                area: errors
                level: MUST
                steps:
                  - login: password
                  - request: GET /resource
                    outcome: \(outcome)
                expect:
                  - never: { endpoint: resource }
                """
            )
            return await ScenarioRunner().run(scenario, with: FailingRequestFactory(failure: failure)).verdict
        }
        let crash = ClientFailure(
            .unexpected,
            message: "'NoneType' object has no attribute 'lower'",
            errorType: "builtins.AttributeError"
        )
        #expect(try await verdict(crash, expecting: "{ error: {} }") == .failed)
        // An operation the client lacks is no refusal either: the judged step skips the scenario.
        #expect(
            try await verdict(ClientFailure(.unsupported, message: "not implemented"), expecting: "{ error: {} }")
                == .skipped(
                    reason:
                        "step 2 (request GET /resource): the client does not support request GET /resource (it answered unsupported: not implemented)"
                )
        )
        #expect(
            try await verdict(
                ClientFailure(.protocolViolation, message: "token_type mac is not supported"),
                expecting: "{ error: {} }"
            ) == .passed
        )
        #expect(try await verdict(crash, expecting: "{ error: unexpected }") == .passed)
        #expect(ErrorCategory.allCases.filter(\.isRefusal).count == ErrorCategory.allCases.count - 2)
    }

    @Test("concurrency scenarios hold for a conforming client whose concurrent calls leave a moment apart")
    func staggeredCallsConform() async throws {
        for id in [
            "retry/stale-credential-replayed-without-new-refresh", "concurrency/one-refresh-for-concurrent-401s",
            "concurrency/one-refresh-for-concurrent-expired-requests", "concurrency/failed-refresh-fails-every-waiter",
            "concurrency/one-token-request-for-concurrent-expired-client-credentials",
        ] {
            let result = await ScenarioRunner().run(try Fixtures.builtInScenario(id), with: StaggeredCallsFactory())
            #expect(result.verdict == .passed, "\(id): \(result.failedChecks.map(\.summary))")
        }
    }

    @Test(
        "a login whose grant the client lacks skips the scenario, naming the grant, unless the step expects unsupported"
    )
    func missingGrantIsASkip() async throws {
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: refresh/needs-password-grant
            title: t
            area: refresh
            level: MUST
            steps:
              - login: password
              - request: GET /resource
            expect:
              - every_step: succeeds
            """
        )
        let factory = FailingRequestFactory(
            failure: ClientFailure(.protocolViolation, message: "unused"),
            loginFailure: ClientFailure(.unsupported, message: "no password grant")
        )
        let result = await ScenarioRunner().run(scenario, with: factory)
        #expect(
            result.verdict
                == .skipped(
                    reason:
                        "step 1 (login password): the client does not support the password grant (it answered unsupported: no password grant)"
                )
        )
        let expecting = try ScriptAdapter.scenario("errors/unsupported-expected")
        #expect(await ScenarioRunner().run(expecting, with: factory).verdict == .passed)
    }
}

/// The reference client with its concurrent calls leaving 50 ms apart instead of at the same
/// instant, as a client on a busy machine, or one that queues calls, sends them: still conforming,
/// so a concurrency scenario must not depend on which call is on the wire first.
struct StaggeredCallsFactory: ClientFactory {
    var profile: ClientProfile { ReferenceClientFactory().profile }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        Client(inner: try await ReferenceClientFactory().makeClient(for: environment))
    }

    struct Client: ClientUnderTest {
        let inner: any ClientUnderTest
        func perform(_ call: ClientCall) async -> ClientAnswer {
            switch call {
            case .login, .request: await inner.perform(call)
            default: call.unsupported
            }
        }
        func shutdown() async { await inner.shutdown() }

        func perform(concurrently calls: [ClientCall]) async -> [ClientOutcome] {
            await withTaskGroup(of: (Int, ClientOutcome).self) { group in
                for (index, call) in calls.enumerated() {
                    group.addTask {
                        try? await Task.sleep(for: .milliseconds(50 * index))
                        return (index, await inner.perform(call).outcome(answering: call))
                    }
                }
                var outcomes: [(Int, ClientOutcome)] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
            }
        }
    }
}

/// A client whose login succeeds without a request (or fails as told) and whose every request
/// fails with the given error: what a scenario makes of a client's reported outcomes alone.
struct FailingRequestFactory: ClientFactory {
    let failure: ClientFailure
    var loginFailure: ClientFailure?
    var profile: ClientProfile { ClientProfile(name: "failing", version: "1", capabilities: [], refreshWindow: nil) }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        Client(failure: failure, loginFailure: loginFailure)
    }

    struct Client: LoginAndRequestClient {
        let failure: ClientFailure
        let loginFailure: ClientFailure?
        func login(_ grant: GrantType) async -> ClientOutcome {
            loginFailure.map(ClientOutcome.failure) ?? .success(status: 200, body: "")
        }
        func request(method: String, url: String) async -> ClientOutcome { .failure(failure) }
        func shutdown() async {}
    }
}
