import MockProvider
import Testing

@testable import OAuthConformance

/// Scenarios built in Swift, for users who test from Swift Testing or XCTest, are the same
/// models the YAML files decode to.
@Suite("Scenarios built in Swift")
struct ScenarioBuilderTests {
    /// The model with its origin cleared: a file-loaded scenario remembers its file, a
    /// Swift-built one has none, and that is the only difference the comparison forgives.
    static func withoutFile(_ scenario: Scenario) -> Scenario {
        var copy = scenario
        copy.file = nil
        return copy
    }

    @Test("the proactive refresh scenario in Swift equals its YAML file")
    func proactiveRefreshTwin() throws {
        let inSwift = Scenario(
            id: "refresh/proactive-within-declared-window",
            title: "The access token is refreshed inside the client's declared window, not before it",
            summary: """
                The provider issues a one-hour access token. The client calls the resource just before its \
                declared refresh window opens, just inside it, and just after the token's expiry. A conforming \
                client keeps the token before the window, refreshes once inside it, and never sends an \
                expired token.

                """,
            area: .refresh,
            family: .named("proactive-refresh"),
            level: .policy,
            spec: ["RFC 6749 §1.5", "catalogue PR-01, PR-02"],
            tags: ["proactive", "refresh-window"],
            requires: [.proactiveRefresh],
            provider: ProviderSettings(tokens: TokenPolicy(accessLifetime: .seconds(3600))),
            steps: [
                .signInAsTheClientDoes,
                .request("GET", "/resource"),
                .advance(to: .expiry(.accessToken(1)) - .clientRefreshWindow - .seconds(5)),
                .request("GET", "/resource"),
                .advance(to: .expiry(.accessToken(1)) - .clientRefreshWindow + .seconds(1)),
                .request("GET", "/resource"),
                .advance(to: .expiry(.accessToken(1)) + .seconds(1)),
                .request("GET", "/resource"),
            ],
            expectations: [
                .everyStepSucceeds,
                .count(.token(grant: .refreshToken), .exactly(1)),
                .firstArrives(
                    .token(grant: .refreshToken),
                    from: .expiry(.accessToken(1)) - .clientRefreshWindow,
                    before: .expiry(.accessToken(1))
                ),
                .never(.resource(), carrying: .expiredAccessToken),
            ]
        )
        let fromYAML = try Fixtures.builtInScenario("refresh/proactive-within-declared-window")
        #expect(fromYAML.file != nil)
        #expect(Self.withoutFile(fromYAML) == inSwift)
    }

    @Test("a matrix combination in Swift equals the one the YAML file makes, parameters included")
    func matrixTwin() throws {
        let inSwift = Scenario(
            id: "errors/token-error-surfaced/invalid_scope",
            title:
                "A token endpoint error is surfaced with its RFC 6749 §5.2 code, not retried, and leaves no token behind",
            summary: """
                The provider refuses the token request that ends the sign-in (the password grant, the code's \
                or the device code's redemption, whichever the client signs in with) with one of the six \
                RFC 6749 §5.2 error codes (one result per code). A conforming client reports the error with \
                its code, does not send the same request again, and has no access token to send afterwards, \
                so the next call fails without reaching the resource.

                """,
            area: .errors,
            family: .named("error-mapping"),
            level: .must,
            spec: ["RFC 6749 §5.2", "catalogue TE-01"],
            tags: ["token-endpoint", "error-codes"],
            provider: ProviderSettings(rules: [
                ProviderRule(
                    match: RequestMatcher(endpoint: .token),
                    action: .oauthError(
                        ScriptedOAuthError(code: "invalid_scope", description: "scripted invalid_scope")
                    )
                )
            ]),
            steps: [
                Step.signInAsTheClientDoes.outcome(.fails(category: nil, oauthError: "invalid_scope")),
                .request("GET", "/resource").outcome(.fails(category: .authorizationRequired, oauthError: nil)),
            ],
            expectations: [
                .count(RequestFilter(endpoint: .token), .atMost(1)),
                .never(.resource()),
            ],
            parameters: ["code": "invalid_scope"]
        )
        let fromYAML = try Fixtures.builtInScenario("errors/token-error-surfaced/invalid_scope")
        #expect(Self.withoutFile(fromYAML) == inSwift)
    }

    @Test("a scenario built in Swift runs like any other")
    func swiftScenarioRuns() async {
        let scenario = Scenario(
            id: "concurrency/in-swift",
            title: "Five concurrent calls after expiry share one refresh",
            area: .concurrency,
            level: .should,
            steps: [
                .login(.password), .advance(to: .expiry(.accessToken(1)) + .seconds(1)),
                .concurrently(5, .request(method: "GET", path: "/resource")),
            ],
            expectations: [
                .everyStepSucceeds, .count(.token(grant: .refreshToken), .exactly(1)),
                .order([.token(grant: .refreshToken), .resource()]),
            ]
        )
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
    }

    @Test("time expressions built with operators print as the YAML writes them")
    func timeExpressionOperators() {
        let expression: TimeExpression = .expiry(.accessToken(1)) - .clientRefreshWindow + .seconds(1)
        #expect(expression.description == "expiry(access_token#1) - client.refresh_window + 1s")
        #expect(expression == (try? TimeExpression.parse("expiry(access_token#1) - client.refresh_window + 1s").get()))
    }
}
