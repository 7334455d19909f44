import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// `concurrently` really overlaps its operations on one client; `wait` takes real time and no
/// virtual time.
@Suite("Concurrent and waiting steps")
struct ConcurrentAndWaitStepTests {
    static func concurrent(times: Int) -> String {
        """
        conformance: 1
        id: concurrency/overlap
        title: t
        area: concurrency
        level: SHOULD
        steps:
          - login: password
          - concurrently: { times: \(times), step: { request: GET /resource } }
            outcome: succeeds
        expect:
          - every_step: succeeds
        """
    }

    @Test("concurrently starts every operation at once on one client and records each outcome")
    func concurrentlyOverlaps() async throws {
        let factory = OverlapCountingClientFactory()
        let result = await ScenarioRunner().run(try Fixtures.scenario(Self.concurrent(times: 10)), with: factory)
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
        // Each call holds for 300 ms; run one after another, no two would ever be in flight together.
        #expect(await factory.counter.mostInFlight == 10)
        #expect(result.transcript?.steps.last?.result.clientOutcomes.count == 10)
    }

    @Test("one failing operation of a concurrent step fails every_step and the step's outcome, saying which")
    func concurrentFailureIsSeen() async throws {
        let factory = OverlapCountingClientFactory(failingCall: 3)
        let result = await ScenarioRunner().run(try Fixtures.scenario(Self.concurrent(times: 5)), with: factory)
        #expect(result.verdict == .failed)
        let outcome = try #require(
            result.failedChecks.first { $0.statement == "step 2 (5 × request GET /resource concurrently) outcome" }
        )
        #expect(outcome.expected == "success for each of the 5")
        #expect(outcome.observed.contains("4 × succeeded with HTTP 200"))
        #expect(outcome.observed.contains("1 × failed: transient: call 3 failed"))
        let every = try #require(result.failedChecks.first { $0.statement == "every step succeeds" })
        #expect(every.observed.hasPrefix("step 2 (5 × request GET /resource concurrently) no. "))
    }

    @Test("the built-in concurrency scenario: twenty requests at one instant, one refresh before them")
    func builtInConcurrencyJournal() async throws {
        let scenario = try Fixtures.builtInScenario("concurrency/one-refresh-for-concurrent-expired-requests")
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
        let journal = try #require(result.transcript?.journal)
        let step = try #require(result.transcript?.steps.last)
        #expect(step.result.clientOutcomes.count == 20)
        #expect(journal.filter { $0.endpoint == .resource }.count == 20)
        try #require(journal.count > 1)
        #expect(
            journal[1].endpoint == .token && journal[1].grant == .refreshToken,
            "the refresh comes before every request of the batch"
        )
        #expect(
            Set(journal.dropFirst().map(\.at)).count == 1,
            "every request of the concurrent step arrives at the same virtual instant"
        )
    }

    @Test("wait lets real time pass and leaves the virtual clock where it was")
    func waitIsRealTime() async throws {
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: retry/wait
            title: t
            area: retry
            level: SHOULD
            steps:
              - login: password
              - wait: 250ms
              - request: GET /resource
            expect:
              - every_step: succeeds
            """
        )
        let started = ContinuousClock.now
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(ContinuousClock.now - started >= .milliseconds(250))
        #expect(result.verdict == .passed)
        #expect(result.step(2)?.result == .waited(.milliseconds(250)))
        #expect(result.transcript?.journal.map(\.at) == [.zero, .zero])
    }
}
