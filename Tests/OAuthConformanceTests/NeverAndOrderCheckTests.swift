import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The checks `never … carries` and `order` fail on a realistic broken client and pass on the
/// reference client.
@Suite("The never … carries and order checks")
struct NeverAndOrderCheckTests {
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
}
