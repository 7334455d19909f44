import Foundation
import MockProvider
import Testing

@Suite("Signing key rotation (OpenID Connect Core §10.1.1)")
struct KeyRotationTests {
    @Test("from an instant on, tokens carry the new kid and the JWKS publishes both keys")
    func rotationAtAnInstant() async throws {
        let policy = IDTokenPolicy(rotation: KeyRotation(.at(.seconds(1800))))
        try await RunningProvider.with(ProviderSettings(idTokens: policy)) { provider in
            let before = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
            #expect(before.header["kid"] == .string("rsa-1"))
            #expect(try await OpenIDSignIn.publishedKeyIDs(provider) == ["rsa-1"])
            provider.provider.clock.advance(by: .seconds(1800))
            #expect(try await OpenIDSignIn.publishedKeyIDs(provider) == ["rsa-2", "rsa-1"])
            let after = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
            #expect(after.header["kid"] == .string("rsa-2"))
            #expect(try await OpenIDSignIn.verifiesAgainstJWKS(after, provider))
            #expect(try await OpenIDSignIn.verifiesAgainstJWKS(before, provider))
        }
    }

    @Test("from the n-th ID token on, with the old key retired from the JWKS")
    func rotationFromAnIDTokenRetiringTheOldKey() async throws {
        let policy = IDTokenPolicy(algorithm: .es256, rotation: KeyRotation(.fromIDToken(2), retireOldKey: true))
        try await RunningProvider.with(ProviderSettings(idTokens: policy)) { provider in
            let first = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
            #expect(first.header["kid"] == .string("ec-1"))
            #expect(try await OpenIDSignIn.publishedKeyIDs(provider) == ["ec-1"])
            let second = try OpenIDSignIn.idToken(try await OpenIDSignIn.refresh(provider, "rt-1"))
            #expect(second.header["kid"] == .string("ec-2"))
            #expect(try await OpenIDSignIn.publishedKeyIDs(provider) == ["ec-2"])
            #expect(try await OpenIDSignIn.verifiesAgainstJWKS(second, provider))
            #expect(!(try await OpenIDSignIn.verifiesAgainstJWKS(first, provider)))
        }
    }
}
