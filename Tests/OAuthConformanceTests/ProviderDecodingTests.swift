import MockProvider
import Testing

@testable import OAuthConformance

/// The provider section of a scenario file decodes into exactly the settings it describes.
@Suite("Decoding provider sections")
struct ProviderDecodingTests {
    static func scenarioText(provider yaml: String) -> String {
        """
        conformance: 1
        id: a/b
        title: t
        area: retry
        level: MUST
        provider:
        \(yaml.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        steps: [{ login: password }]
        expect: [{ every_step: succeeds }]
        """
    }

    func provider(_ yaml: String) throws -> ProviderSettings {
        try Fixtures.scenario(Self.scenarioText(provider: yaml)).provider
    }

    @Test("tokens, TLS, seed and redirect URIs")
    func settings() throws {
        let settings = try provider(
            """
            tokens: { access_lifetime: 5m, refresh_lifetime: 1d, rotate_refresh_tokens: true, revoke_all_at: [30m, 1h] }
            tls: wrong_host
            seed: 42
            redirect_uris: [https://app.example/cb]
            """
        )
        #expect(
            settings.tokens
                == TokenPolicy(
                    accessLifetime: .seconds(300),
                    refreshLifetime: .seconds(86_400),
                    rotateRefreshTokens: true,
                    revokeAllAt: [.seconds(1800), .seconds(3600)]
                )
        )
        #expect(settings.tls == .wrongHost)
        #expect(settings.seed == 42)
        #expect(settings.redirectURIs == ["https://app.example/cb"])
        #expect(settings.clockSkew == nil)
        #expect(try provider("clock_skew: { behind: 10m }").clockSkew == .seconds(-600))
        #expect(try provider("clock_skew: { ahead: 90s }").clockSkew == .seconds(90))
    }

    @Test("call selectors and time windows")
    func selectors() throws {
        let rules = try provider(
            """
            rules:
              - { when: { endpoint: resource, calls: 2..4 }, respond: { status: 500 } }
              - { when: { endpoint: token, grant: authorization_code, from_call: 3 }, respond: { status: 500 } }
              - { when: { during: { from: 1m, before: 2m } }, respond: { status: 500 } }
            """
        ).rules.map(\.match)
        #expect(
            rules == [
                RequestMatcher(endpoint: .resource, calls: .range(2...4)),
                RequestMatcher(endpoint: .token, grant: .authorizationCode, calls: .from(3)),
                RequestMatcher(during: .seconds(60)..<(.seconds(120))),
            ]
        )
    }

    @Test("every action")
    func actions() throws {
        let actions = try provider(
            """
            rules:
              - sequence: [{ respond: { status: 503 } }, { error: { code: invalid_grant } }]
              - redirect: { status: 308, to: other_origin }
              - redirect: { to: "http://127.0.0.1:9" }
              - authorization_response: { state: previous, iss: omit, error: access_denied }
              - retry_later: { status: 429, after: 30s, as: http_date }
              - token_response: { expires_in: "3600", omit: [token_type], encoding: form, content_type: text/plain, truncate_at: 12 }
            """
        ).rules.map(\.action)
        #expect(
            actions == [
                .sequence([
                    .respond(ProviderResponse(status: 503)), .oauthError(ScriptedOAuthError(code: "invalid_grant")),
                ]),
                .redirect(Redirect(status: 308, to: .otherOrigin)),
                .redirect(Redirect(status: 307, to: .base("http://127.0.0.1:9"))),
                .alterAuthorizationResponse(
                    AuthorizationResponseAlteration(state: .previous, issuer: .omit, error: "access_denied")
                ),
                .retryLater(RetryLater(status: 429, after: .seconds(30), format: .httpDate)),
                .alterTokenResponse(
                    TokenResponseAlteration(
                        set: ["expires_in": .string("3600")],
                        omit: ["token_type"],
                        formEncoded: true,
                        contentType: .replace("text/plain"),
                        truncatedTo: 12
                    )
                ),
            ]
        )
    }

    @Test("every delivery, alone or with an action")
    func deliveries() throws {
        let rules = try provider(
            """
            rules:
              - { delay: 200ms, jitter: 50ms }
              - { transport: never }
              - { transport: reset }
              - { transport: close_without_answer }
              - { transport: { garbage: "junk" } }
              - { transport: { dribble: { chunk_size: 4, every: 100ms } }, respond: { status: 200, body: abcdefgh } }
            """
        ).rules
        #expect(
            rules.map(\.delivery) == [
                .delayed(latency: .milliseconds(200), jitter: .milliseconds(50)), .never, .reset, .closeWithoutAnswer,
                .garbage("junk"), .dribble(chunkSize: 4, interval: .milliseconds(100)),
            ]
        )
        #expect(rules[0].action == nil)
        #expect(rules[5].action == .respond(ProviderResponse(status: 200, body: "abcdefgh")))
    }

    @Test("mistakes are reported where they are, with what would be right")
    func diagnostics() {
        let found = Fixtures.diagnostics(
            Self.scenarioText(
                provider: """
                    tls: selfsigned
                    rules:
                      - { transport: rest }
                      - { transport: never, delay: 1s }
                      - { when: { call: 1, from_call: 2 }, respond: { status: 500 } }
                      - { when: { calls: 4..2 }, respond: { status: 500 } }
                      - { respond: { status: 500 }, error: { code: invalid_grant } }
                      - { when: { endpoint: token } }
                      - { redirect: { to: elsewhere } }
                    """
            )
        ).map(\.description)
        #expect(
            found == [
                "broken.yaml:7:8: error: 'selfsigned' is not a valid tls certificate; did you mean 'self_signed'? (allowed: valid, self_signed, expired, wrong_host, other_key)",
                "broken.yaml:9:20: error: 'rest' is not a transport fault; did you mean 'reset'? (allowed: never, reset, close_without_answer, or { garbage: TEXT }, or { dribble: { chunk_size: N, every: DURATION } }, or { hold_until_request: N })",
                "broken.yaml:10:9: error: a rule with transport cannot also have delay or jitter",
                "broken.yaml:11:26: error: when has call, from_call; give only one of them",
                "broken.yaml:12:24: error: calls must read FIRST..LAST, e.g. 2..4, not '4..2'",
                "broken.yaml:13:35: error: a rule has respond, error; give only one of them",
                "broken.yaml:14:7: error: a rule needs one of respond, token_response, error, sequence, redirect, authorization_response, retry_later, id_token, dpop_nonce, document, delay, jitter, transport",
                "broken.yaml:15:25: error: redirect.to must be other_origin or a base URL such as http://127.0.0.1:8080, not 'elsewhere'",
            ]
        )
    }

    @Test(
        "mcp's method scopes decode into the server's policy; a scope that is no list of scope tokens, where it stands"
    )
    func mcpMethodScopes() throws {
        let settings = try provider(
            """
            mcp: { method_scopes: { "tools/call": "files:read files:write", ping: x }, scopes_never_enough: true }
            """
        )
        #expect(settings.mcp.methodScopes == ["tools/call": "files:read files:write", "ping": "x"])
        #expect(settings.mcp.scopesNeverEnough)
        #expect(try provider("mcp: { challenge_scope: a }").mcp.methodScopes.isEmpty)
        let found = Fixtures.diagnostics(
            Self.scenarioText(
                provider: """
                    mcp:
                      method_scopes: { "tools/call": "files:read  files:write", "tools/list": "a\\"b" }
                      scopes_never_enough: 1
                    """
            )
        ).map(\.description)
        #expect(
            found == [
                "broken.yaml:8:36: error: the scope of tools/call must be scope tokens separated by single spaces (RFC 6749 §3.3), not 'files:read  files:write'",
                "broken.yaml:8:77: error: the scope of tools/list must be scope tokens separated by single spaces (RFC 6749 §3.3), not 'a\"b'",
                "broken.yaml:9:26: error: mcp.scopes_never_enough must be true or false, not '1'",
            ]
        )
        let alone = Fixtures.diagnostics(Self.scenarioText(provider: "mcp: { scopes_never_enough: true }"))
            .map(\.description)
        #expect(
            alone == [
                "broken.yaml:7:31: error: mcp.scopes_never_enough needs mcp.method_scopes: only a method that needs a scope is refused"
            ]
        )
    }

    @Test("dpop decodes into the policy it describes, and a rule's dpop_nonce into its action")
    func dpop() throws {
        let settings = try provider(
            """
            dpop: { nonce: [token, resource], nonce_rotates_every: 2, refresh_tokens_bound: true, answers_bearer: true }
            rules:
              - { when: { endpoint: resource, call: 2 }, dpop_nonce: renew }
            """
        )
        #expect(
            settings.dpop
                == DPoPPolicy(
                    nonceRequiredAt: [.token, .resource],
                    nonceRotatesEvery: 2,
                    refreshTokensBound: true,
                    answersBearer: true
                )
        )
        #expect(settings.rules.map(\.action) == [.renewDPoPNonce])
        #expect(try provider("dpop: {}").dpop == DPoPPolicy())
        #expect(try provider("tokens: { access_lifetime: 5m }").dpop == nil)
    }

    @Test("client_secret_jwt needs a secret HS256 can key, and says so where the method is named")
    func clientSecretJWT() throws {
        let registered = try provider(
            """
            client_secret: a-client-secret-of-at-least-32-bytes
            client_authentication: client_secret_jwt
            """
        )
        #expect(registered.clientAuthentication == .clientSecretJWT)
        let found = Fixtures.diagnostics(Self.scenarioText(provider: "client_authentication: client_secret_jwt"))
            .map(\.description)
        #expect(
            found == [
                "broken.yaml:7:26: error: client_secret_jwt MACs assertions HS256 with the client secret, which has 18 bytes; RFC 7518 §3.2 needs at least 32: set provider.client_secret to a longer one"
            ]
        )
    }

    @Test("none registers a public client, which has no secret to key HS256 ID tokens with")
    func publicClient() throws {
        #expect(try provider("client_authentication: none").clientAuthentication == .publicClient)
        let found = Fixtures.diagnostics(
            Self.scenarioText(
                provider: """
                    client_authentication: none
                    id_tokens: { alg: HS256 }
                    client_secret: a-client-secret-of-at-least-32-bytes
                    """
            )
        ).map(\.description)
        #expect(
            found == [
                "broken.yaml:8:14: error: id_tokens.alg HS256 keys ID tokens with the client secret, and a public client (client_authentication: none) has none: register it for RS256, PS256 or ES256"
            ]
        )
    }

    @Test("dpop mistakes are reported where they are")
    func dpopDiagnostics() {
        let found = Fixtures.diagnostics(
            Self.scenarioText(
                provider: """
                    dpop: { nonce: [token, userinfo], nonce_rotates_every: 0 }
                    """
            )
        ).map(\.description)
        #expect(
            found == [
                "broken.yaml:7:26: error: dpop.nonce names token or resource, not 'userinfo'",
                "broken.yaml:7:58: error: dpop.nonce_rotates_every must be between 1 and 1000, not 0",
            ]
        )
        let unoffered = Fixtures.diagnostics(
            Self.scenarioText(
                provider: """
                    rules:
                      - { when: { endpoint: jwks }, dpop_nonce: renew }
                      - { when: { endpoint: token }, dpop_nonce: again }
                      - { dpop_nonce: renew }
                    """
            )
        ).map(\.description)
        #expect(
            unoffered == [
                "broken.yaml:8:35: error: dpop_nonce renews the nonce of the token endpoint or the resource; this rule's endpoint is jwks",
                "broken.yaml:9:48: error: dpop_nonce takes renew, not 'again'",
                "broken.yaml:8:5: error: a rule's dpop_nonce needs provider.dpop: the provider offers no DPoP without it",
            ]
        )
    }

    @Test("scripted headers no HTTP message can carry are refused, each where it stands")
    func unsendableHeaders() {
        let found = Fixtures.diagnostics(
            Self.scenarioText(
                provider: """
                    rules:
                      - { respond: { status: 500, headers: { "Retry After": "1" } } }
                      - { respond: { status: 500, headers: { X-Injected: "a\\r\\nSet-Cookie: b" } } }
                      - { respond: { status: 500, headers: { X-Odd: "Bearer  , , error=" } } }
                    """
            )
        ).map(\.description)
        #expect(
            found == [
                "broken.yaml:8:44: error: header name 'Retry After' is not an HTTP token (RFC 9110 §5.1): letters, digits and !#$%&'*+-.^_`|~ only",
                "broken.yaml:9:56: error: header X-Injected: a value cannot hold CR, LF or NUL (RFC 9110 §5.5)",
            ]
        )
    }
}
