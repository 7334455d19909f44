import Crypto
import Foundation
import JWTKit

/// The JWS algorithms a client may register for its ID tokens (`id_token_signed_response_alg`,
/// OIDC Registration §2; RS256 when none is registered, OIDC Core §3.1.3.7 step 7). `none` is not
/// among them: an unsigned token is a separate decision (`OpenIDConnectBehaviour.acceptsUnsignedIDTokens`).
public enum IDTokenSigningAlgorithm: String, Sendable, CaseIterable {
    case rs256 = "RS256"
    case ps256 = "PS256"
    case es256 = "ES256"
    /// Keyed with the octets of the UTF-8 client secret (OIDC Core §10.1), never with a JWKS key.
    case hs256 = "HS256"

    /// Whether the key comes from the provider's JWKS rather than from the client's own secret.
    var usesProviderKeys: Bool { self != .hs256 }

    /// Whether a JWK from the provider's JWKS is a key this algorithm verifies with: the right `kty`
    /// (and curve), and, when the JWK names an `alg`, this one (RFC 7517 §4.4).
    func canVerify(with key: JWK) -> Bool {
        if let intended = key.algorithm, intended.rawValue != rawValue { return false }
        switch self {
        case .rs256, .ps256: return key.keyType == .rsa
        case .es256: return key.keyType == .ecdsa && key.curve == .ecdsa(.p256)
        case .hs256: return false
        }
    }

    /// `at_hash` (OIDC Core §3.1.3.6, §3.2.2.9): base64url of the left half of the hash of the
    /// ASCII access token, with the hash of this algorithm; SHA-256 for every algorithm here.
    func accessTokenHash(of accessToken: String) -> String {
        let digest = Array(SHA256.hash(data: Data(accessToken.utf8)))
        return AuthorizationRequest.base64URL(Data(digest.prefix(digest.count / 2)))
    }
}
