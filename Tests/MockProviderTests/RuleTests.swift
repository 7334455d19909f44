import MockProvider
import Testing

@Suite("Misbehaviour rules, observed on the wire")
struct RuleTests {
    @Test("a rule takes only the n-th matching call, counted per endpoint and grant")
    func nthCall() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .token, grant: .refreshToken, calls: .nth(2)),
                action: .respond(
                    ProviderResponse(status: 503, headers: [HeaderField("Retry-After", "7")], body: "busy")
                )
            )
        ])
        try await RunningProvider.with(settings) { provider throws in
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
                action: .alterTokenResponse(
                    TokenResponseAlteration(
                        set: ["expires_in": .string("3600"), "refresh_token": .null],
                        omit: ["token_type"]
                    )
                )
            )
        ])
        try await RunningProvider.with(settings) { provider throws in
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
            ProviderRule(
                match: RequestMatcher(endpoint: .token, calls: .nth(1)),
                action: .oauthError(
                    ScriptedOAuthError(code: "invalid_client", description: "nope", uri: "https://example.test/e")
                )
            ),
            ProviderRule(
                match: RequestMatcher(endpoint: .token, calls: .nth(2)),
                action: .oauthError(ScriptedOAuthError(code: "invalid_scope"))
            ),
            ProviderRule(
                match: RequestMatcher(endpoint: .token, calls: .range(3...3)),
                action: .oauthError(ScriptedOAuthError(code: "invalid_grant", status: 200))
            ),
        ])
        try await RunningProvider.with(settings) { provider throws in
            let first = try await provider.passwordGrant()
            #expect(first.status == 401)
            #expect(
                first.json
                    == .object([
                        "error": .string("invalid_client"), "error_description": .string("nope"),
                        "error_uri": .string("https://example.test/e"),
                    ])
            )
            #expect(try await provider.passwordGrant().status == 400)
            let third = try await provider.passwordGrant()
            #expect(third.status == 200)
            #expect(third.json?["error"] == .string("invalid_grant"))
            #expect(try await provider.passwordGrant().json?["access_token"] == .string("at-1"))
        }
    }
}

@Suite("Retry-After from virtual time")
struct RetryAfterTests {
    @Test("Retry-After as delay-seconds and as an HTTP-date of virtual now plus the delay")
    func retryAfter() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .token, calls: .nth(1)),
                action: .retryLater(RetryLater(status: 429, after: .seconds(30)))
            ),
            ProviderRule(
                match: RequestMatcher(endpoint: .token, calls: .nth(2)),
                action: .retryLater(RetryLater(after: .seconds(90), format: .httpDate))
            ),
        ])
        try await RunningProvider.with(settings) { provider throws in
            let seconds = try await provider.passwordGrant()
            #expect(seconds.status == 429)
            #expect(seconds.headers["Retry-After"].first == "30")
            provider.provider.clock.advance(by: .seconds(3600))
            let date = try await provider.passwordGrant()
            #expect(date.status == 503)
            // The virtual origin is 2026-01-01T00:00:00Z; an hour and 90 seconds later:
            #expect(date.headers["Retry-After"].first == "Thu, 01 Jan 2026 01:01:30 GMT")
        }
    }
}

@Suite("Token responses labelled, encoded or cut wrongly")
struct MalformedTokenResponseTests {
    func answer(_ alteration: TokenResponseAlteration) async throws -> RunningProvider.Answer {
        let rule = ProviderRule(match: RequestMatcher(endpoint: .token), action: .alterTokenResponse(alteration))
        return try await RunningProvider.with(ProviderSettings(rules: [rule])) { try await $0.passwordGrant() }
    }

    @Test("a form-encoded body, as legacy providers send")
    func formEncoded() async throws {
        let answer = try await answer(TokenResponseAlteration(formEncoded: true))
        #expect(answer.headers["Content-Type"].first == "application/x-www-form-urlencoded")
        #expect(answer.body == "access_token=at-1&expires_in=3600&refresh_token=rt-1&token_type=Bearer")
    }

    @Test("a wrong or missing Content-Type on a JSON body")
    func contentType() async throws {
        #expect(
            try await answer(TokenResponseAlteration(contentType: .replace("text/plain"))).headers["Content-Type"] == [
                "text/plain"
            ]
        )
        #expect(try await answer(TokenResponseAlteration(contentType: .omit)).headers["Content-Type"].isEmpty)
    }

    @Test("truncated JSON")
    func truncated() async throws {
        let answer = try await answer(TokenResponseAlteration(truncatedTo: 20))
        #expect(answer.body == #"{"access_token":"at-"#)
        #expect(answer.json == nil)
    }
}

@Suite("Scripted answers arrive exactly as scripted")
struct ScriptedAnswerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let response: ProviderResponse
        var testDescription: String { name }
    }

    static let cases = [
        Case(
            name: "an HTML 502 page",
            response: ProviderResponse(
                status: 502,
                headers: [HeaderField("Content-Type", "text/html")],
                body: "<html><body><h1>502 Bad Gateway</h1></body></html>"
            )
        ),
        Case(
            name: "401 invalid_token",
            response: ProviderResponse(
                status: 401,
                headers: [HeaderField("WWW-Authenticate", #"Bearer error="invalid_token""#)]
            )
        ),
        Case(
            name: "403 insufficient_scope",
            response: ProviderResponse(
                status: 403,
                headers: [HeaderField("WWW-Authenticate", #"Bearer error="insufficient_scope", scope="admin""#)]
            )
        ),
        Case(name: "401 without a challenge", response: ProviderResponse(status: 401)),
        Case(
            name: "401 with a Basic challenge",
            response: ProviderResponse(
                status: 401,
                headers: [HeaderField("WWW-Authenticate", #"Basic realm="legacy""#)]
            )
        ),
        Case(
            name: "200 with an error body",
            response: ProviderResponse(
                status: 200,
                headers: [HeaderField("Content-Type", "application/json")],
                body: #"{"error":"invalid_grant"}"#
            )
        ),
    ]

    @Test("the client sees the scripted status, headers and body", arguments: cases)
    func scripted(_ scripted: Case) async throws {
        let rule = ProviderRule(match: RequestMatcher(endpoint: .resource), action: .respond(scripted.response))
        try await RunningProvider.with(ProviderSettings(rules: [rule])) { provider throws in
            let answer = try await provider.resource(bearer: "anything")
            #expect(answer.status == scripted.response.status)
            #expect(answer.body == scripted.response.body)
            for header in scripted.response.headers {
                #expect(answer.headers[header.name] == [header.value])
            }
        }
    }

    @Test("a 401 storm: every call from the first on is refused, whatever token it carries")
    func storm() async throws {
        let storm = ProviderRule(
            match: RequestMatcher(endpoint: .resource, calls: .from(1)),
            action: .respond(
                ProviderResponse(
                    status: 401,
                    headers: [HeaderField("WWW-Authenticate", #"Bearer error="invalid_token""#)]
                )
            )
        )
        try await RunningProvider.with(ProviderSettings(rules: [storm])) { provider throws in
            _ = try await provider.passwordGrant()
            for _ in 0..<5 { #expect(try await provider.resource(bearer: "at-1").status == 401) }
        }
    }
}
