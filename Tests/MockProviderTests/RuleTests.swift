import MockProvider
import Testing

@Suite("Misbehaviour rules, observed on the wire")
struct RuleTests {
    @Test("a rule takes only the n-th matching call, counted per endpoint and grant")
    func nthCall() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .token, grant: .refreshToken, calls: .nth(2)),
                action: .respond(ProviderResponse(status: 503, headers: [HeaderField("Retry-After", "7")], body: "busy"))
            )
        ])
        try await RunningProvider.with(settings) { provider in
            let client = provider.settings.client
            _ = try await provider.passwordGrant()  // a password grant does not count towards the refresh rule
            let refresh = [("grant_type", "refresh_token"), ("refresh_token", "rt-1")]
            #expect(try await provider.token(refresh, basic: client).status == 200)
            let second = try await provider.token(refresh, basic: client)
            #expect(second.status == 503)
            #expect(second.headers["Retry-After"].first == "7")
            #expect(second.body == "busy")
            #expect(try await provider.token(refresh, basic: client).status == 200)
        }
    }

    @Test("token_response omits and sets members of a normal response, which still issues tokens")
    func alteredTokenResponse() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .token, grant: .password),
                action: .alterTokenResponse(TokenResponseAlteration(set: ["expires_in": .string("3600"), "refresh_token": .null], omit: ["token_type"]))
            )
        ])
        try await RunningProvider.with(settings) { provider in
            let answer = try await provider.passwordGrant()
            #expect(answer.status == 200)
            #expect(answer.json?["expires_in"] == .string("3600"))
            #expect(answer.json?["refresh_token"] == .null)
            #expect(answer.json?["token_type"] == nil)
            #expect(try await provider.resource(bearer: "at-1").status == 200)
        }
    }

    @Test("an RFC 6749 §5.2 error takes the status the RFC gives its code unless one is scripted")
    func scriptedErrors() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(match: RequestMatcher(endpoint: .token, calls: .nth(1)),
                         action: .oauthError(ScriptedOAuthError(code: "invalid_client", description: "nope", uri: "https://example.test/e"))),
            ProviderRule(match: RequestMatcher(endpoint: .token, calls: .nth(2)), action: .oauthError(ScriptedOAuthError(code: "invalid_scope"))),
            ProviderRule(match: RequestMatcher(endpoint: .token, calls: .range(3...3)), action: .oauthError(ScriptedOAuthError(code: "invalid_grant", status: 200))),
        ])
        try await RunningProvider.with(settings) { provider in
            let first = try await provider.passwordGrant()
            #expect(first.status == 401)
            #expect(first.json == .object(["error": .string("invalid_client"), "error_description": .string("nope"), "error_uri": .string("https://example.test/e")]))
            #expect(try await provider.passwordGrant().status == 400)
            let third = try await provider.passwordGrant()
            #expect(third.status == 200)
            #expect(third.json?["error"] == .string("invalid_grant"))
            #expect(try await provider.passwordGrant().json?["access_token"] == .string("at-1"))
        }
    }
}
