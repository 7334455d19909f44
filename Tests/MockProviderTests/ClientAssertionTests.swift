import Foundation
import JWTKit
import MockProvider
import Testing

/// `private_key_jwt` client authentication at the token endpoint (RFC 7523 §2.2 and §3), observed
/// on the wire: what the provider accepts, and each way an assertion is refused.
@Suite("Client assertions are verified as RFC 7523 §3 says")
struct ClientAssertionTests {
    struct Claims: JWTPayload {
        var iss: String?
        var sub: String?
        var aud: String?
        /// Any JSON value, so a test can send a fraction, a number beyond Int64 or a string.
        var exp: JSONValue?
        var iat: JSONValue?
        var jti: String?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    static let now = Int(VirtualClock.defaultOrigin.timeIntervalSince1970)

    /// An assertion signed with the registered key, or (`otherKey`) with a key of the same kind.
    static func assertion(_ claims: Claims, otherKey: Bool = false) async throws -> String {
        let keys = JWTKeyCollection()
        if otherKey {
            await keys.add(ecdsa: ES256PrivateKey(), kid: "client-key-1")
        } else {
            try await keys.add(jwk: JWK(json: RegisteredClientKey.shared.privateJWK))
        }
        return try await keys.sign(claims, kid: "client-key-1")
    }

    func correct(_ provider: RunningProvider, jti: String = UUID().uuidString) -> Claims {
        Claims(
            iss: "conformance-client",
            sub: "conformance-client",
            aud: provider.server.baseURL + "/token",
            exp: .integer(Self.now + 60),
            iat: .integer(Self.now),
            jti: jti
        )
    }

    func tokenRequest(
        _ provider: RunningProvider,
        _ assertion: String,
        extra: [(String, String)] = []
    )
        async throws -> RunningProvider.Answer
    {
        try await provider.token(
            [
                ("grant_type", "client_credentials"), ("client_id", "conformance-client"),
                ("client_assertion_type", Self.assertionType), ("client_assertion", assertion),
            ] + extra,
            basic: nil
        )
    }

    static var settings: ProviderSettings {
        var settings = ProviderSettings()
        settings.clientAuthentication = .privateKeyJWT
        return settings
    }

    @Test("a correct assertion authenticates the client; the same jti a second time is a replay")
    func acceptedOnce() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            let assertion = try await Self.assertion(correct(provider))
            #expect(try await tokenRequest(provider, assertion).status == 200)
            let replay = try await tokenRequest(provider, assertion)
            #expect(replay.status == 401)
            #expect(replay.json?["error_description"]?.stringValue == "the assertion's jti was used before (a replay)")
        }
    }

    @Test(
        "client_secret_jwt: an assertion MACed HS256 with the secret authenticates; one signed by the key, or the secret itself, does not"
    )
    func clientSecretJWT() async throws {
        var settings = ProviderSettings()
        settings.client.secret = "a-client-secret-of-at-least-32-bytes"
        settings.clientAuthentication = .clientSecretJWT
        try await RunningProvider.with(settings) { provider in
            let keys = await JWTKeyCollection().add(
                hmac: HMACKey(from: "a-client-secret-of-at-least-32-bytes"),
                digestAlgorithm: .sha256
            )
            let maced = try await keys.sign(correct(provider))
            #expect(try await tokenRequest(provider, maced).status == 200)
            let signed = try await Self.assertion(correct(provider))
            let refused = try await tokenRequest(provider, signed)
            #expect(
                refused.json?["error_description"]?.stringValue
                    == "the assertion is not MACed HS256 with the client secret"
            )
            let secret = try await provider.token([("grant_type", "client_credentials")], basic: settings.client)
            #expect(secret.status == 401)
            let metadata = try await provider.send("GET", path: "/.well-known/oauth-authorization-server")
            #expect(metadata.json?["token_endpoint_auth_methods_supported"] == .array([.string("client_secret_jwt")]))
        }
    }

    @Test("a push to the PAR endpoint takes an assertion addressed to that endpoint (RFC 9126 §2)")
    func pushAudience() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            var claims = correct(provider)
            claims.aud = provider.server.baseURL + "/par"
            let body = [
                ("response_type", "code"), ("client_id", "conformance-client"),
                ("redirect_uri", "http://127.0.0.1/callback"), ("client_assertion_type", Self.assertionType),
                ("client_assertion", try await Self.assertion(claims)),
            ].map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.1)" }
            let pushed = try await provider.send(
                "POST",
                path: "/par",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: body.joined(separator: "&")
            )
            #expect(pushed.status == 201, "\(pushed.body)")
        }
    }

    @Test(
        "another key, another audience, another issuer, an expired or future one, or the secret beside it: invalid_client"
    )
    func refusals() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            var wrongAudience = correct(provider)
            wrongAudience.aud = provider.server.baseURL + "/resource"
            var wrongIssuer = correct(provider)
            wrongIssuer.iss = "someone-else"
            var expired = correct(provider)
            expired.exp = .integer(Self.now - 1)
            var future = correct(provider)
            future.iat = .integer(Self.now + 3600)
            var noJTI = correct(provider)
            noJTI.jti = nil
            let cases: [(String, String, [(String, String)])] = [
                ("another key", try await Self.assertion(correct(provider), otherKey: true), []),
                ("another audience", try await Self.assertion(wrongAudience), []),
                ("another issuer", try await Self.assertion(wrongIssuer), []),
                ("expired", try await Self.assertion(expired), []),
                ("issued in the future", try await Self.assertion(future), []),
                ("no jti", try await Self.assertion(noJTI), []),
                (
                    "with the secret", try await Self.assertion(correct(provider)),
                    [("client_secret", "conformance-secret")]
                ),
            ]
            for (name, assertion, extra) in cases {
                let answer = try await tokenRequest(provider, assertion, extra: extra)
                #expect(answer.status == 401, "\(name): \(answer.body)")
                #expect(answer.json?["error"]?.stringValue == "invalid_client", "\(name)")
            }
            // The secret alone no longer authenticates a client registered for private_key_jwt.
            let bySecret = try await provider.token(
                [("grant_type", "client_credentials")],
                basic: provider.settings.client
            )
            #expect(bySecret.status == 401)
        }
    }

    @Test("exp and iat are NumericDates (RFC 7519 §2): a fraction is read as the instant it names")
    func fractionalTimes() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            var fractional = correct(provider)
            fractional.exp = .number(Double(Self.now) + 60.5)
            fractional.iat = .number(Double(Self.now) - 0.5)
            let accepted = try await tokenRequest(provider, try await Self.assertion(fractional))
            #expect(accepted.status == 200, "\(accepted.body)")
            var farFuture = correct(provider)
            farFuture.iat = .number(1e300)
            let refused = try await tokenRequest(provider, try await Self.assertion(farFuture))
            #expect(refused.status == 401, "\(refused.body)")
            #expect(
                refused.json?["error_description"]?.stringValue
                    == "iat must be Unix seconds between 1970 and the year 9999"
            )
        }
    }

    @Test("a body client_id other than the assertion's client is refused (RFC 7521 §4.2)")
    func otherClientID() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            let assertion = try await Self.assertion(correct(provider))
            let answer = try await provider.token(
                [
                    ("grant_type", "client_credentials"), ("client_id", "another-client"),
                    ("client_assertion_type", Self.assertionType), ("client_assertion", assertion),
                ],
                basic: nil
            )
            #expect(answer.status == 401, "\(answer.body)")
            #expect(
                answer.json?["error_description"]?.stringValue
                    == "client_id is another-client, but the assertion is the client conformance-client's (RFC 7521 §4.2)"
            )
        }
    }

    @Test("an assertion addressed to the PAR or device authorization endpoint is no good at the token endpoint")
    func audienceOfAnotherEndpoint() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            for path in ["/par", "/device_authorization"] {
                var claims = correct(provider)
                claims.aud = provider.server.baseURL + path
                let answer = try await tokenRequest(provider, try await Self.assertion(claims))
                #expect(answer.status == 401, "\(path): \(answer.body)")
                #expect(answer.json?["error_description"]?.stringValue?.hasPrefix("aud must be") == true)
            }
        }
    }

    @Test("a jti longer than 256 bytes is refused: the provider remembers jtis, and a 700 KB one is an attack")
    func longJTI() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            let long = correct(provider, jti: String(repeating: "j", count: 700_000))
            let answer = try await tokenRequest(provider, try await Self.assertion(long))
            #expect(answer.status == 401)
            #expect(answer.json?["error_description"]?.stringValue == "jti must be 1 to 256 bytes")
            let longest = correct(provider, jti: String(repeating: "j", count: 256))
            #expect(try await tokenRequest(provider, try await Self.assertion(longest)).status == 200)
        }
    }
}
