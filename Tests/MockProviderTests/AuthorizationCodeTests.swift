import Crypto
import Foundation
import MockProvider
import Testing

@Suite("Authorization code flow with PKCE")
struct AuthorizationCodeTests {
    static let redirectURI = "http://127.0.0.1:4711/callback"
    static let verifier = String(repeating: "v", count: 43) + "-._~0123456789"

    /// Plays the browser: GET /authorize, returns the redirect's query.
    func authorize(
        _ provider: RunningProvider,
        _ extra: [String: String] = [:]
    ) async throws -> (status: Int, query: [String: String], location: String?) {
        var items = [
            "response_type": "code", "client_id": provider.settings.client.id, "redirect_uri": Self.redirectURI,
            "state": "s-123",
            "code_challenge": PKCEFixture.s256(Self.verifier), "code_challenge_method": "S256",
        ]
        items.merge(extra) { _, new in new }
        var components = URLComponents()
        components.queryItems = items.filter { !$0.value.isEmpty }.map { URLQueryItem(name: $0.key, value: $0.value) }
        let answer = try await provider.send("GET", path: "/authorize?" + (components.percentEncodedQuery ?? ""))
        let location = answer.headers["Location"].first
        let query =
            location.flatMap(URLComponents.init(string:))?.queryItems?.reduce(into: [String: String]()) {
                $0[$1.name] = $1.value
            } ?? [:]
        return (answer.status, query, location)
    }

    func redeem(
        _ provider: RunningProvider,
        code: String,
        verifier: String? = verifier
    ) async throws -> RunningProvider.Answer {
        var form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.redirectURI)]
        if let verifier { form.append(("code_verifier", verifier)) }
        return try await provider.token(form, basic: provider.settings.client)
    }

    @Test("consent redirects with code, state and iss; the code and verifier buy tokens once")
    func happyPath() async throws {
        try await RunningProvider.with { provider throws in
            let redirect = try await authorize(provider)
            #expect(redirect.status == 302)
            #expect(redirect.location?.hasPrefix(Self.redirectURI + "?") == true)
            #expect(redirect.query["state"] == "s-123")
            #expect(redirect.query["iss"] == provider.server.baseURL)
            let code = try #require(redirect.query["code"])
            let tokens = try await redeem(provider, code: code)
            #expect(tokens.status == 200)
            #expect(tokens.json?["access_token"] == .string("at-1"))
            #expect(try await provider.resource(bearer: "at-1").status == 200)
        }
    }

    @Test("a code redeemed twice is refused and what it bought is revoked (RFC 6749 §4.1.2)")
    func replayedCode() async throws {
        try await RunningProvider.with { provider throws in
            let code = try #require(try await authorize(provider).query["code"])
            #expect(try await redeem(provider, code: code).status == 200)
            let replay = try await redeem(provider, code: code)
            #expect(replay.json?["error"] == .string("invalid_grant"))
            #expect(try await provider.resource(bearer: "at-1").status == 401)
        }
    }

    @Test("PKCE is verified: wrong, missing and unasked-for verifiers are refused; plain works")
    func pkce() async throws {
        try await RunningProvider.with { provider throws in
            let wrong = try #require(try await authorize(provider).query["code"])
            #expect(
                try await redeem(provider, code: wrong, verifier: String(repeating: "w", count: 43)).json?["error"]
                    == .string("invalid_grant")
            )
            let missing = try #require(try await authorize(provider).query["code"])
            #expect(try await redeem(provider, code: missing, verifier: nil).json?["error"] == .string("invalid_grant"))
            let unasked = try #require(
                try await authorize(provider, ["code_challenge": "", "code_challenge_method": ""]).query["code"]
            )
            #expect(try await redeem(provider, code: unasked).json?["error"] == .string("invalid_grant"))
            let plain = try #require(
                try await authorize(provider, ["code_challenge": Self.verifier, "code_challenge_method": "plain"])
                    .query["code"]
            )
            #expect(try await redeem(provider, code: plain).status == 200)
        }
    }

    @Test("an unregistered redirect URI gets an error page, never a redirect; loopback matches any port")
    func redirectURIs() async throws {
        try await RunningProvider.with { provider throws in
            let foreign = try await authorize(provider, ["redirect_uri": "https://attacker.example/cb"])
            #expect(foreign.status == 400)
            #expect(foreign.location == nil)
            #expect(try await authorize(provider, ["redirect_uri": "http://127.0.0.1:9/callback"]).status == 302)
            let implicit = try await authorize(provider, ["response_type": "token"])
            #expect(implicit.query["error"] == "unsupported_response_type")
            #expect(implicit.query["code"] == nil)
        }
    }

    @Test("authorization responses misbehave on command: state, iss and access_denied")
    func alteredAuthorizationResponses() async throws {
        func alteration(_ change: AuthorizationResponseAlteration, call: Int) -> ProviderRule {
            ProviderRule(
                match: RequestMatcher(endpoint: .authorize, calls: .nth(call)),
                action: .alterAuthorizationResponse(change)
            )
        }
        let settings = ProviderSettings(rules: [
            alteration(AuthorizationResponseAlteration(state: .omit), call: 1),
            alteration(AuthorizationResponseAlteration(state: .replace("forged")), call: 2),
            alteration(AuthorizationResponseAlteration(state: .previous), call: 3),
            alteration(AuthorizationResponseAlteration(issuer: .replace("https://evil.example")), call: 4),
            alteration(AuthorizationResponseAlteration(error: "access_denied"), call: 5),
        ])
        try await RunningProvider.with(settings) { provider throws in
            #expect(try await authorize(provider, ["state": "one"]).query["state"] == nil)
            #expect(try await authorize(provider, ["state": "two"]).query["state"] == "forged")
            #expect(try await authorize(provider, ["state": "three"]).query["state"] == "two")
            #expect(try await authorize(provider, ["state": "four"]).query["iss"] == "https://evil.example")
            let denied = try await authorize(provider, ["state": "five"])
            #expect(denied.query["error"] == "access_denied")
            #expect(denied.query["code"] == nil)
            #expect(denied.query["state"] == "five")
        }
    }
}

enum PKCEFixture {
    /// BASE64URL(SHA256(verifier)) without padding, encoded here rather than by the provider, so a
    /// wrong S256 in the provider would show; the hash is swift-crypto's, held to RFC 7636's own
    /// example by `PKCEFixtureTests`. (Not through an `openssl` process: hundreds of parallel
    /// tests each spawning one made Foundation's `Process.run` crash the whole test process.)
    static func s256(_ verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

@Suite("The PKCE fixture")
struct PKCEFixtureTests {
    @Test("it gives RFC 7636 Appendix B's challenge for its verifier")
    func rfcExample() {
        #expect(
            PKCEFixture.s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        )
    }
}
