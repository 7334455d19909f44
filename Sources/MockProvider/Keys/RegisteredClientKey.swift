import Crypto
import Foundation

/// The key pair registered for the client under test when it authenticates with `private_key_jwt`
/// (RFC 7523 §2.2, OpenID Connect Core §9): minted once per process, like the provider's own keys.
/// The private half is handed to the client (`privateJWK`); the provider verifies assertions with
/// the public half.
public struct RegisteredClientKey: Sendable {
    public static let shared = RegisteredClientKey()

    public let kid = "client-key-1"
    private let privateKey = P256.Signing.PrivateKey()

    private init() {}

    /// The private key as a JWK (RFC 7518 §6.2: `x`, `y` and the private `d`), ES256.
    public var privateJWK: String {
        // x963: 0x04 ‖ x ‖ y, 32 bytes each.
        let point = privateKey.publicKey.x963Representation.dropFirst()
        return JSONValue.object([
            "kty": .string("EC"), "crv": .string("P-256"), "alg": .string("ES256"), "use": .string("sig"),
            "kid": .string(kid), "x": .string(Base64URL.encode(point.prefix(32))),
            "y": .string(Base64URL.encode(point.suffix(32))),
            "d": .string(Base64URL.encode(privateKey.rawRepresentation)),
        ]).serialized()
    }

    /// Whether `signature` (the 64-byte `r ‖ s` of RFC 7518 §3.4) signs `input` with this key.
    func verifies(_ signature: Data, over input: Data) -> Bool {
        guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return privateKey.publicKey.isValidSignature(parsed, for: input)
    }
}
