import Crypto
import CryptoExtras
import Foundation
import MockProvider

/// A client's DPoP key for provider tests, making proofs by hand (RFC 9449 §4.2) so that a test can
/// also make every wrong one: another `typ` or `alg`, a private `jwk`, a stale `iat`, a bad signature.
struct DPoPProofKey {
    private enum Key {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    private let key: Key

    static func es256() -> DPoPProofKey { DPoPProofKey(key: .p256(P256.Signing.PrivateKey())) }
    static func rs256() throws -> DPoPProofKey {
        DPoPProofKey(key: .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048)))
    }
    static func edDSA() -> DPoPProofKey { DPoPProofKey(key: .ed25519(Curve25519.Signing.PrivateKey())) }

    var algorithm: String {
        switch key {
        case .p256: "ES256"
        case .rsa: "RS256"
        case .ed25519: "EdDSA"
        }
    }

    /// The public JWK; `withPrivateMember` adds `d`, as a client that sends its whole key would.
    func jwk(withPrivateMember: Bool = false) -> [String: JSONValue] {
        var jwk: [String: JSONValue]
        switch key {
        case .p256(let key):
            let point = key.publicKey.x963Representation.dropFirst()
            jwk = [
                "kty": .string("EC"), "crv": .string("P-256"), "x": .string(Base64URL.encode(point.prefix(32))),
                "y": .string(Base64URL.encode(point.suffix(32))),
            ]
            if withPrivateMember { jwk["d"] = .string(Base64URL.encode(key.rawRepresentation)) }
        case .rsa(let key):
            let components = try! key.publicKey.getKeyPrimitives()
            jwk = [
                "kty": .string("RSA"), "n": .string(Base64URL.encode(components.modulus)),
                "e": .string(Base64URL.encode(components.publicExponent)),
            ]
        case .ed25519(let key):
            jwk = [
                "kty": .string("OKP"), "crv": .string("Ed25519"),
                "x": .string(Base64URL.encode(key.publicKey.rawRepresentation)),
            ]
        }
        return jwk
    }

    /// What a test makes wrong in a proof.
    struct Overrides {
        var typ = "dpop+jwt"
        var alg: String?
        var privateJWK = false
        var badSignature = false
        /// An `iat` of any JSON value instead of `issuedAt`: a fraction, a number beyond Int64, a string.
        var iat: JSONValue?
    }

    func proof(
        method: String = "POST",
        url: String,
        issuedAt: Int = Int(VirtualClock.defaultOrigin.timeIntervalSince1970),
        jti: String = UUID().uuidString,
        accessToken: String? = nil,
        nonce: String? = nil,
        overrides: Overrides = Overrides()
    ) -> String {
        let header: JSONValue = .object([
            "typ": .string(overrides.typ), "alg": .string(overrides.alg ?? algorithm),
            "jwk": .object(jwk(withPrivateMember: overrides.privateJWK)),
        ])
        var claims: [String: JSONValue] = [
            "jti": .string(jti), "htm": .string(method), "htu": .string(url),
            "iat": overrides.iat ?? .integer(issuedAt),
        ]
        if let accessToken {
            claims["ath"] = .string(Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8)))))
        }
        if let nonce { claims["nonce"] = .string(nonce) }
        let input =
            Base64URL.encode(Data(header.serialized().utf8)) + "."
            + Base64URL.encode(Data(JSONValue.object(claims).serialized().utf8))
        var signature = sign(Data(input.utf8))
        if overrides.badSignature { signature[signature.startIndex] ^= 0xFF }
        return input + "." + Base64URL.encode(signature)
    }

    private func sign(_ input: Data) -> Data {
        switch key {
        case .p256(let key): (try! key.signature(for: input)).rawRepresentation
        case .rsa(let key): (try! key.signature(for: input, padding: .insecurePKCS1v1_5)).rawRepresentation
        case .ed25519(let key): try! key.signature(for: input)
        }
    }
}
