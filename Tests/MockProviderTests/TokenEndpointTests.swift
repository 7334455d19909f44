import Foundation
import MockProvider
import Testing

@Suite("Token endpoint over HTTP")
struct TokenEndpointTests {
    @Test("password grant with HTTP Basic answers RFC 6749 §5.1 JSON that must not be cached")
    func passwordGrant() async throws {
        try await RunningProvider.with { provider throws in
            let answer = try await provider.passwordGrant()
            #expect(answer.status == 200)
            #expect(answer.headers["Content-Type"].first == "application/json")
            #expect(answer.headers["Cache-Control"].first == "no-store")
            #expect(answer.json?["access_token"] == .string("at-1"))
            #expect(answer.json?["token_type"] == .string("Bearer"))
            #expect(answer.json?["expires_in"] == .integer(3600))
            #expect(answer.json?["refresh_token"] == .string("rt-1"))
        }
    }

    @Test("client_secret_post authenticates; Basic and a body secret together are refused")
    func clientAuthenticationInTheBody() async throws {
        try await RunningProvider.with { provider throws in
            let client = provider.settings.client
            let user = provider.settings.user
            let form = [
                ("grant_type", "password"), ("username", user.username), ("password", user.password),
                ("client_id", client.id), ("client_secret", client.secret),
            ]
            let inBody = try await provider.token(form, basic: nil)
            #expect(inBody.status == 200)
            let both = try await provider.token(form, basic: client)
            #expect(both.status == 400)
            #expect(both.json?["error"] == .string("invalid_request"))
        }
    }

    @Test("Basic credentials are form-decoded (RFC 6749 §2.3.1)")
    func basicCredentialsAreFormDecoded() async throws {
        let client = ClientCredentials(id: "client:one", secret: "p@ss word/+")
        try await RunningProvider.with(ProviderSettings(client: client)) { provider throws in
            let answer = try await provider.token([("grant_type", "client_credentials")], basic: client)
            #expect(answer.status == 200)
        }
    }

    @Test("a wrong client secret gets 401 invalid_client with a Basic challenge")
    func wrongClientSecret() async throws {
        try await RunningProvider.with { provider throws in
            let wrong = ClientCredentials(id: provider.settings.client.id, secret: "wrong")
            let answer = try await provider.token([("grant_type", "client_credentials")], basic: wrong)
            #expect(answer.status == 401)
            #expect(answer.json?["error"] == .string("invalid_client"))
            #expect(answer.headers["WWW-Authenticate"].first?.hasPrefix("Basic") == true)
        }
    }

    @Test("grant errors: wrong password, unknown grant, missing grant")
    func grantErrors() async throws {
        try await RunningProvider.with { provider throws in
            let client = provider.settings.client
            let wrongPassword = try await provider.token(
                [("grant_type", "password"), ("username", "alice"), ("password", "nope")],
                basic: client
            )
            #expect(wrongPassword.status == 400)
            #expect(wrongPassword.json?["error"] == .string("invalid_grant"))
            let unknown = try await provider.token([("grant_type", "urn:example:unknown")], basic: client)
            #expect(unknown.json?["error"] == .string("unsupported_grant_type"))
            let missing = try await provider.token([("scope", "read")], basic: client)
            #expect(missing.json?["error"] == .string("invalid_request"))
            let get = try await provider.send("GET", path: "/token")
            #expect(get.status == 405)
        }
    }

    @Test("client_credentials issues no refresh token (RFC 6749 §4.4.3)")
    func clientCredentials() async throws {
        try await RunningProvider.with { provider throws in
            let answer = try await provider.token(
                [("grant_type", "client_credentials")],
                basic: provider.settings.client
            )
            #expect(answer.status == 200)
            #expect(answer.json?["access_token"] != nil)
            #expect(answer.json?["refresh_token"] == nil)
        }
    }

    @Test("refresh without rotation hands back the same refresh token and a new access token")
    func refreshWithoutRotation() async throws {
        try await RunningProvider.with { provider throws in
            _ = try await provider.passwordGrant()
            let refreshed = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-1")],
                basic: provider.settings.client
            )
            #expect(refreshed.json?["access_token"] == .string("at-2"))
            #expect(refreshed.json?["refresh_token"] == .string("rt-1"))
            let unknown = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-99")],
                basic: provider.settings.client
            )
            #expect(unknown.json?["error"] == .string("invalid_grant"))
        }
    }

    @Test("with rotation, a superseded refresh token is refused and revokes its whole family")
    func rotationReuseDetection() async throws {
        let settings = ProviderSettings(tokens: TokenPolicy(rotateRefreshTokens: true))
        try await RunningProvider.with(settings) { provider throws in
            let client = provider.settings.client
            _ = try await provider.passwordGrant()
            let first = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-1")],
                basic: client
            )
            #expect(first.json?["refresh_token"] == .string("rt-2"))
            let reuse = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-1")],
                basic: client
            )
            #expect(reuse.json?["error"] == .string("invalid_grant"))
            let successor = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-2")],
                basic: client
            )
            #expect(successor.json?["error"] == .string("invalid_grant"))
            #expect(try await provider.resource(bearer: "at-2").status == 401)
        }
    }
}
