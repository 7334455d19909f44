import Foundation
import JWTKit
import MockProvider
import Testing

@Suite("Discovery, JWKS and userinfo (OpenID Connect Discovery §4, Core §5.3, §10.1.1)")
struct OpenIDEndpointsTests {
    @Test("the OpenID configuration names the issuer, every endpoint and what ID tokens use")
    func discovery() async throws {
        try await RunningProvider.with(ProviderSettings(idTokens: IDTokenPolicy(algorithm: .es256))) { provider in
            let answer = try await provider.send("GET", path: "/.well-known/openid-configuration")
            #expect(answer.status == 200)
            let document = try #require(answer.json)
            let base = provider.server.baseURL
            #expect(document["issuer"] == .string(base))
            #expect(document["authorization_endpoint"] == .string(base + "/authorize"))
            #expect(document["token_endpoint"] == .string(base + "/token"))
            #expect(document["userinfo_endpoint"] == .string(base + "/userinfo"))
            #expect(document["jwks_uri"] == .string(base + "/jwks"))
            // The registered algorithm first, and RS256, which Discovery §3 requires in the list.
            #expect(document["id_token_signing_alg_values_supported"] == .array([.string("ES256"), .string("RS256")]))
            #expect(document["response_types_supported"] == .array([.string("code")]))
            #expect(document["subject_types_supported"] == .array([.string("public")]))
            guard case .array(let scopes)? = document["scopes_supported"] else {
                Issue.record("no scopes_supported")
                return
            }
            #expect(scopes.contains(.string("openid")))
            #expect(provider.provider.journal.entries.last?.endpoint == .openIDConfiguration)
        }
    }

    @Test("a discovery document whose issuer is not where it was fetched (token_response on the endpoint)")
    func issuerMismatch() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .openIDConfiguration),
                action: .alterTokenResponse(TokenResponseAlteration(set: ["issuer": .string("https://evil.example")]))
            )
        ])
        try await RunningProvider.with(settings) { provider in
            let document = try await provider.send("GET", path: "/.well-known/openid-configuration").json
            #expect(document?["issuer"] == .string("https://evil.example"))
            #expect(document?["jwks_uri"] == .string(provider.server.baseURL + "/jwks"))
        }
    }

    @Test("the JWKS publishes the signing key's public half, which JWTKit reads")
    func jwks() async throws {
        try await RunningProvider.with { provider throws in
            let answer = try await provider.send("GET", path: "/jwks")
            #expect(answer.status == 200)
            #expect(answer.headers["Content-Type"].first == "application/json")
            let key = try #require(try JSONDecoder().decode(JWKS.self, from: Data(answer.body.utf8)).keys.first)
            #expect(key.keyType == .rsa)
            #expect(key.keyIdentifier?.string == "rsa-1")
            #expect(key.algorithm == .rs256)
            #expect(key.privateExponent == nil)
            #expect(provider.provider.journal.entries.last?.endpoint == .jwks)
        }
    }

    @Test("a rule on the jwks endpoint answers 503 or garbage (respond and transport reused)")
    func brokenJWKS() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .jwks, calls: .nth(1)),
                action: .respond(ProviderResponse(status: 503))
            ),
            ProviderRule(
                match: RequestMatcher(endpoint: .jwks, calls: .nth(2)),
                action: .respond(
                    ProviderResponse(
                        status: 200,
                        headers: [HeaderField("Content-Type", "application/json")],
                        body: "{\"keys\": ["
                    )
                )
            ),
        ])
        try await RunningProvider.with(settings) { provider in
            #expect(try await provider.send("GET", path: "/jwks").status == 503)
            let garbage = try await provider.send("GET", path: "/jwks")
            #expect(garbage.json == nil)
            #expect(try await OpenIDSignIn.publishedKeyIDs(provider) == ["rsa-1"])
        }
    }

    @Test("userinfo answers sub and claims for a bearer token in the header or in a form body")
    func userinfo() async throws {
        try await RunningProvider.with { provider throws in
            let tokens = try await OpenIDSignIn.signIn(provider)
            let accessToken = try #require(tokens.json?["access_token"]?.stringValue)
            let viaHeader = try await provider.send(
                "GET",
                path: "/userinfo",
                headers: [("Authorization", "Bearer \(accessToken)")]
            )
            #expect(viaHeader.status == 200)
            #expect(viaHeader.json?["sub"] == .string("alice"))
            #expect(viaHeader.json?["email"] == .string("alice@example.com"))
            let viaBody = try await provider.send(
                "POST",
                path: "/userinfo",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: "access_token=\(accessToken)"
            )
            #expect(viaBody.status == 200)
            #expect(viaBody.json?["sub"] == .string("alice"))
            let both = try await provider.send(
                "POST",
                path: "/userinfo",
                headers: [
                    ("Authorization", "Bearer \(accessToken)"), ("Content-Type", "application/x-www-form-urlencoded"),
                ],
                body: "access_token=\(accessToken)"
            )
            #expect(both.status == 400)
            #expect(provider.provider.journal.entries.last?.endpoint == .userinfo)
        }
    }

    @Test("userinfo refuses a bad token with 401 invalid_token, and no token with a bare challenge")
    func userinfoRefusals() async throws {
        try await RunningProvider.with { provider throws in
            let bad = try await provider.send("GET", path: "/userinfo", headers: [("Authorization", "Bearer at-99")])
            #expect(bad.status == 401)
            #expect(bad.headers["WWW-Authenticate"].first?.contains("error=\"invalid_token\"") == true)
            let none = try await provider.send("GET", path: "/userinfo")
            #expect(none.status == 401)
            #expect(none.headers["WWW-Authenticate"].first == "Bearer realm=\"mock-provider\"")
        }
    }

    @Test("userinfo answering another sub (token_response on the endpoint)")
    func userinfoOtherSubject() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .userinfo),
                action: .alterTokenResponse(TokenResponseAlteration(set: ["sub": .string("mallory")]))
            )
        ])
        try await RunningProvider.with(settings) { provider in
            _ = try await OpenIDSignIn.signIn(provider)
            let answer = try await provider.send("GET", path: "/userinfo", headers: [("Authorization", "Bearer at-1")])
            #expect(answer.json?["sub"] == .string("mallory"))
        }
    }
}
