import Foundation
import MockProvider
import Testing

@Suite("Revocation, introspection, metadata, scheduled revocation")
struct ServerEndpointsTests {
    func post(
        _ provider: RunningProvider,
        _ path: String,
        _ form: [(String, String)]
    ) async throws -> RunningProvider.Answer {
        let client = provider.settings.client
        let credentials = Data("\(client.id):\(client.secret)".utf8).base64EncodedString()
        return try await provider.send(
            "POST",
            path: path,
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", "Basic \(credentials)"),
            ],
            body: form.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        )
    }

    @Test("revoking a refresh token ends its family; revoking an access token ends that token (RFC 7009)")
    func revocation() async throws {
        try await RunningProvider.with { provider throws in
            _ = try await provider.passwordGrant()
            _ = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-1")],
                basic: provider.settings.client
            )
            #expect(try await post(provider, "/revoke", [("token", "at-2")]).status == 200)
            #expect(try await provider.resource(bearer: "at-2").status == 401)
            #expect(try await provider.resource(bearer: "at-1").status == 200)
            #expect(try await post(provider, "/revoke", [("token", "rt-1")]).status == 200)
            #expect(try await provider.resource(bearer: "at-1").status == 401)
            let refresh = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-1")],
                basic: provider.settings.client
            )
            #expect(refresh.json?["error"] == .string("invalid_grant"))
            #expect(try await post(provider, "/revoke", [("token", "never-issued")]).status == 200)
            #expect(try await provider.send("POST", path: "/revoke", body: "token=rt-1").status == 401)
        }
    }

    @Test("introspection reports live tokens with times in virtual seconds, dead ones as inactive (RFC 7662)")
    func introspection() async throws {
        try await RunningProvider.with { provider throws in
            _ = try await provider.passwordGrant()
            let live = try await post(provider, "/introspect", [("token", "at-1")])
            let origin = Int(provider.provider.clock.origin.timeIntervalSince1970)
            #expect(
                live.json
                    == .object([
                        "active": .bool(true), "client_id": .string("conformance-client"), "sub": .string("alice"),
                        "token_type": .string("Bearer"), "iat": .integer(origin), "exp": .integer(origin + 3600),
                    ])
            )
            provider.provider.clock.advance(by: .seconds(3600))
            #expect(
                try await post(provider, "/introspect", [("token", "at-1")]).json == .object(["active": .bool(false)])
            )
        }
    }

    @Test("metadata names every endpoint under the issuer (RFC 8414)")
    func metadata() async throws {
        try await RunningProvider.with { provider throws in
            let metadata = try await provider.send("GET", path: "/.well-known/oauth-authorization-server").json
            let base = provider.server.baseURL
            #expect(metadata?["issuer"] == .string(base))
            #expect(metadata?["token_endpoint"] == .string(base + "/token"))
            #expect(metadata?["authorization_endpoint"] == .string(base + "/authorize"))
            #expect(metadata?["revocation_endpoint"] == .string(base + "/revoke"))
            #expect(metadata?["code_challenge_methods_supported"] == .array([.string("S256"), .string("plain")]))
        }
    }

    @Test("a scheduled revocation kills the tokens issued before it, not those after")
    func scheduledRevocation() async throws {
        try await RunningProvider.with(ProviderSettings(tokens: TokenPolicy(revokeAllAt: [.seconds(30)]))) {
            provider throws in
            _ = try await provider.passwordGrant()
            #expect(try await provider.resource(bearer: "at-1").status == 200)
            provider.provider.clock.advance(by: .seconds(30))
            #expect(try await provider.resource(bearer: "at-1").status == 401)
            let refresh = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-1")],
                basic: provider.settings.client
            )
            #expect(refresh.json?["error"] == .string("invalid_grant"))
            _ = try await provider.passwordGrant()
            #expect(try await provider.resource(bearer: "at-2").status == 200)
        }
    }

    @Test("a redirect points to the other origin, which serves the same provider")
    func crossOriginRedirect() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .resource, calls: .nth(1)),
                action: .redirect(Redirect(status: 307, to: .otherOrigin))
            )
        ])
        try await RunningProvider.with(settings) { provider throws in
            let first = try await provider.send(
                "GET",
                path: "/resource/items?x=1",
                headers: [("Authorization", "Bearer at-1")]
            )
            #expect(first.status == 307)
            let location = try #require(first.headers["Location"].first)
            #expect(location == provider.server.otherOriginURL + "/resource/items?x=1")
            #expect(location.hasPrefix("http://127.0.0.1:") && !location.hasPrefix(provider.server.baseURL))
            _ = try await provider.send("GET", url: location, headers: [("Authorization", "Bearer at-1")])
            let followed = try #require(provider.provider.journal.entries.last)
            #expect(followed.request.listener == .otherOrigin)
            #expect(followed.request.bearerToken == "at-1")
        }
    }
}
