import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The checks `order` and `never … carries` fail on a realistic broken client and pass on the
/// reference client; `concurrently` really overlaps; `wait` takes real time and no virtual time.
@Suite("Order, token placement, concurrent and waiting steps")
struct NewStepAndCheckTests {
    static let placement = """
        conformance: 1
        id: security/placement
        title: Tokens stay in the Authorization header
        area: security
        level: MUST
        steps:
          - login: password
          - request: GET /resource
        expect:
          - never: { carries: access_token_in_query }
          - never: { endpoint: resource, carries: refresh_token }
        """

    @Test("the reference client keeps tokens out of queries and refresh tokens away from the resource")
    func referenceKeepsTokensInPlace() async throws {
        let result = await ScenarioRunner().run(try Fixtures.scenario(Self.placement), with: ReferenceClientFactory())
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
    }

    @Test(
        "a client that leaks a token fails the placement check, which says where the token was",
        arguments: [
            (
                LeakyClientFactory.Leak.accessTokenInQuery, "no request carrying an access token in the query string",
                "access_token#1 in query parameter access_token"
            ),
            (
                .refreshTokenInHeader, "no resource requests carrying a refresh token",
                "refresh_token#1 in header X-Refresh-Token"
            ),
            (
                .refreshTokenInQuery, "no resource requests carrying a refresh token",
                "refresh_token#1 in query parameter refresh_token"
            ),
            (
                .refreshTokenInBody, "no resource requests carrying a refresh token",
                "refresh_token#1 in form field refresh_token"
            ),
        ]
    )
    func leakIsCaught(_ leak: LeakyClientFactory.Leak, _ statement: String, _ sighting: String) async throws {
        let result = await ScenarioRunner().run(
            try Fixtures.scenario(Self.placement),
            with: LeakyClientFactory(leak: leak)
        )
        #expect(result.verdict == .failed)
        #expect(result.failedChecks.map(\.statement) == [statement])
        let failed = try #require(result.failedChecks.first)
        #expect(failed.observed.hasPrefix("1 (#2 t=+0s (\(sighting))"), "\(failed.observed)")
        #expect(failed.evidence == [2])
    }

    static let replayOrder = """
        conformance: 1
        id: retry/order
        title: A 401 leads to a refresh, then a successful replay
        area: retry
        level: SHOULD
        provider:
          rules:
            - when: { endpoint: resource, call: 1 }
              respond: { status: 401, headers: { WWW-Authenticate: 'Bearer error="invalid_token"' } }
        steps:
          - login: password
          - request: GET /resource
        expect:
          - order: [{ endpoint: resource, status: 401 }, { endpoint: token, grant: refresh_token }, { endpoint: resource, status: 200 }]
        """

    @Test("order passes when the first matches arrive in the listed order")
    func orderPasses() async throws {
        let result = await ScenarioRunner().run(try Fixtures.scenario(Self.replayOrder), with: ReferenceClientFactory())
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
        #expect(result.checks.first?.evidence == [2, 3, 4])
    }

    @Test("order fails on a client that never refreshes after a 401, naming the request that never came")
    func orderFailsWhenAStepIsMissing() async throws {
        let result = await ScenarioRunner().run(
            try Fixtures.scenario(Self.replayOrder),
            with: try Fixtures.defect("no-refresh-on-401").factory
        )
        let check = try #require(result.checks.first { $0.kind == "order" })
        #expect(!check.passed)
        #expect(
            check.observed
                == "resource request (status 401) first at #2 t=+0s; token request (grant refresh_token) never; resource request (status 200) never"
        )
    }

    @Test("order fails when the first matches arrive in another order")
    func orderFailsOutOfOrder() async throws {
        let reversed = Self.replayOrder.replacingOccurrences(
            of: "[{ endpoint: resource, status: 401 }, { endpoint: token, grant: refresh_token }",
            with: "[{ endpoint: token, grant: refresh_token }, { endpoint: resource, status: 401 }"
        )
        let result = await ScenarioRunner().run(try Fixtures.scenario(reversed), with: ReferenceClientFactory())
        let check = try #require(result.checks.first)
        #expect(!check.passed)
        #expect(
            check.expected
                == "token request (grant refresh_token) → resource request (status 401) → resource request (status 200)"
        )
    }

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
