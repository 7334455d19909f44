import Foundation
import JWTKit
import MockProvider
import Testing

@Suite("ID tokens of the code flow and its refreshes (OpenID Connect Core §2, §3.1.3.3, §12.2)")
struct IDTokenTests {
    /// base64url of the left half of SHA-256("at-1"), computed outside Swift.
    static let atHashOfAT1 = "R8PYaIQdcYEdkSc9TeGyiQ"
    static let atHashOfAT2 = "Rv_Y8zmyH5bp8CPx5x1oKw"

    @Test("scope openid buys an RS256 ID token that verifies against the JWKS, with the right claims")
    func codeFlowIDToken() async throws {
        try await RunningProvider.with { provider throws in
            let answer = try await OpenIDSignIn.signIn(provider)
            #expect(answer.status == 200)
            let token = try OpenIDSignIn.idToken(answer)
            #expect(token.header["alg"] == .string("RS256"))
            #expect(token.header["kid"] == .string("rsa-1"))
            #expect(try await OpenIDSignIn.verifiesAgainstJWKS(token, provider))
            let claims = token.claims
            #expect(claims["iss"] == .string(provider.server.baseURL))
            #expect(claims["sub"] == .string("alice"))
            #expect(claims["aud"] == .string("conformance-client"))
            #expect(claims["nonce"] == .string(OpenIDSignIn.nonce))
            #expect(claims["at_hash"] == .string(Self.atHashOfAT1))
            #expect(claims["iat"] == .integer(OpenIDSignIn.origin))
            #expect(claims["auth_time"] == .integer(OpenIDSignIn.origin))
            #expect(claims["exp"] == .integer(OpenIDSignIn.origin + 3600))
            #expect(claims["azp"] == nil)
            let issued = try #require(provider.provider.issuedIDTokens.first)
            #expect(issued.ordinal == 1)
            #expect(issued.value == token.compact)
            #expect(issued.accessToken == "at-1")
            #expect(issued.signedWith == "rsa-1 (RS256)")
        }
    }

    @Test(
        "ES256 and PS256 are chosen by the provider's settings and verify against the JWKS",
        arguments: [
            IDTokenAlgorithm.es256, .ps256,
        ]
    )
    func otherAlgorithms(_ algorithm: IDTokenAlgorithm) async throws {
        try await RunningProvider.with(ProviderSettings(idTokens: IDTokenPolicy(algorithm: algorithm))) { provider in
            let token = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
            #expect(token.header["alg"] == .string(algorithm.rawValue))
            #expect(token.header["kid"] == .string(algorithm == .es256 ? "ec-1" : "rsa-1"))
            #expect(try await OpenIDSignIn.verifiesAgainstJWKS(token, provider))
        }
    }

    @Test("HS256 is keyed with the client secret, without kid")
    func clientSecretHS256() async throws {
        try await RunningProvider.with(ProviderSettings(idTokens: IDTokenPolicy(algorithm: .hs256))) { provider in
            let token = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
            #expect(token.header["alg"] == .string("HS256"))
            #expect(token.header["kid"] == nil)
            #expect(OpenIDSignIn.isHS256(token, keyedWith: "conformance-secret"))
            #expect(!OpenIDSignIn.isHS256(token, keyedWith: "another-secret"))
        }
    }

    @Test("no openid scope, no ID token: neither the code flow's nor the password grant's")
    func plainOAuthHasNoIDToken() async throws {
        try await RunningProvider.with { provider throws in
            let oauthOnly = try await OpenIDSignIn.signIn(provider, scope: "profile")
            #expect(oauthOnly.status == 200)
            #expect(oauthOnly.json?["id_token"] == nil)
            #expect(try await provider.passwordGrant().json?["id_token"] == nil)
            #expect(provider.provider.issuedIDTokens.isEmpty)
        }
    }

    @Test("the refresh of an openid grant carries a new ID token: same iss, sub, auth_time; no nonce")
    func refreshCarriesIDToken() async throws {
        try await RunningProvider.with { provider throws in
            let first = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
            provider.provider.clock.advance(by: .seconds(600))
            let refreshed = try await OpenIDSignIn.refresh(provider, "rt-1")
            #expect(refreshed.json?["access_token"] == .string("at-2"))
            let second = try OpenIDSignIn.idToken(refreshed)
            #expect(try await OpenIDSignIn.verifiesAgainstJWKS(second, provider))
            for claim in ["iss", "sub", "aud", "auth_time"] {
                #expect(second.claims[claim] == first.claims[claim], "\(claim)")
            }
            #expect(second.claims["nonce"] == nil)
            #expect(second.claims["iat"] == .integer(OpenIDSignIn.origin + 600))
            #expect(second.claims["at_hash"] == .string(Self.atHashOfAT2))
            #expect(provider.provider.issuedIDTokens.map(\.accessToken) == ["at-1", "at-2"])
        }
    }
}
