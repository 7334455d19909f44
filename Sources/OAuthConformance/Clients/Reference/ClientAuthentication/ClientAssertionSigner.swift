import Foundation
import JWTKit

/// Builds the reference client's `private_key_jwt` and `client_secret_jwt` client assertions (RFC
/// 7523 §2.2 and §3, OpenID Connect Core §9) with jwt-kit, signed with the private JWK the client
/// was registered with (ES256) or MACed with its secret (HS256):
/// `iss` and `sub` the client, `aud` the token endpoint, a short `exp`, and a fresh `jti` each.
struct ClientAssertionSigner: Sendable {
    struct Claims: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var exp: Int
        var iat: Int
        var jti: String

        // Signing only: the authorization server verifies.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// How long an assertion is valid: long enough for one request, short enough that a leaked
    /// one is soon worthless.
    static let lifetime: TimeInterval = 60

    private let keys: JWTKeyCollection
    /// `nil` for a secret, which has no key id.
    private let kid: JWKIdentifier?

    init(privateJWK: String) async throws {
        let jwk = try JWK(json: privateJWK)
        guard let kid = jwk.keyIdentifier else { throw JWTError.invalidJWK(reason: "the registered key has no kid") }
        self.keys = try await JWTKeyCollection().add(jwk: jwk)
        self.kid = kid
    }

    /// `client_secret_jwt`: HS256 keyed with the client secret (at least 32 bytes, RFC 7518 §3.2).
    init(clientSecret: String) async {
        self.keys = await JWTKeyCollection().add(hmac: HMACKey(from: clientSecret), digestAlgorithm: .sha256)
        self.kid = nil
    }

    func assertion(clientID: String, audience: String, issuedAt: Date, jti: String) async throws -> String {
        let now = Int(issuedAt.timeIntervalSince1970)
        return try await keys.sign(
            Claims(iss: clientID, sub: clientID, aud: audience, exp: now + Int(Self.lifetime), iat: now, jti: jti),
            kid: kid
        )
    }
}
