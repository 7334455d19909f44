import Crypto
import CryptoExtras
import Foundation
import JWTKit

/// One asymmetric key the provider signs ID tokens with, and publishes in its JWKS under `kid`.
public struct SigningKey: Sendable {
    enum Material: Sendable {
        /// RS256 and PS256 (RSA-2048).
        case rsa(_RSA.Signing.PrivateKey)
        /// ES256.
        case p256(P256.Signing.PrivateKey)
    }

    public let kid: String
    let material: Material

    /// The JWS signature over `input` with this key, as RFC 7518 §3 lays it out for `algorithm`:
    /// PKCS #1 v1.5 or PSS bytes for RSA, the 64-byte `r ‖ s` for ES256. `nil` when the algorithm
    /// does not belong to the key type (a caller's mistake, answered as an unsigned token).
    func signature(over input: [UInt8], as algorithm: IDTokenAlgorithm) -> [UInt8]? {
        switch (material, algorithm) {
        case (.rsa(let key), .rs256):
            try? Array(key.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation)
        case (.rsa(let key), .ps256):
            try? Array(key.signature(for: SHA256.hash(data: input), padding: .PSS).rawRepresentation)
        case (.p256(let key), .es256):
            try? Array(key.signature(for: input).rawRepresentation)
        default:
            nil
        }
    }

    /// The public key as PEM (SubjectPublicKeyInfo, `-----BEGIN PUBLIC KEY-----`), ending in a line
    /// break as a PEM file does: the bytes an algorithm-confusion attacker keys HS256 with.
    public var publicKeyPEM: String {
        let pem =
            switch material {
            case .rsa(let key): key.publicKey.pemRepresentation
            case .p256(let key): key.publicKey.pemRepresentation
            }
        return pem.hasSuffix("\n") ? pem : pem + "\n"
    }

    /// The public half as a JWK (RFC 7517 §4, RFC 7518 §6), advertising `algorithm`.
    func publicJWK(for algorithm: IDTokenAlgorithm) -> JWK {
        switch material {
        case .rsa(let key):
            // Primitives of a key minted here cannot fail to read; an empty modulus would show it.
            let primitives = try? key.publicKey.getKeyPrimitives()
            return .rsa(
                JWK.Algorithm(rawValue: algorithm.rawValue),
                identifier: JWKIdentifier(string: kid),
                modulus: Base64URL.encode(primitives?.modulus ?? Data()),
                exponent: Base64URL.encode(primitives?.publicExponent ?? Data())
            )
        case .p256(let key):
            // x963: 0x04 ‖ x ‖ y, 32 bytes each.
            let point = key.publicKey.x963Representation.dropFirst()
            return .ecdsa(
                .es256,
                identifier: JWKIdentifier(string: kid),
                x: Base64URL.encode(point.prefix(32)),
                y: Base64URL.encode(point.suffix(32)),
                curve: .p256
            )
        }
    }

    func fitsAlgorithm(_ algorithm: IDTokenAlgorithm) -> Bool {
        switch (material, algorithm) {
        case (.rsa, .rs256), (.rsa, .ps256), (.p256, .es256): true
        default: false
        }
    }
}

/// base64url without padding (RFC 7515 §2), the encoding of every part of a JWS and JWK. Public
/// for the checks, which read the DPoP proofs the provider journaled.
public enum Base64URL {
    /// Foundation's base64, its three characters mapped byte by byte: `replacingOccurrences` went
    /// through CFString and cost more than the ES256 signature of an ID token.
    public static func encode(_ bytes: some DataProtocol) -> String {
        let base64 = Data(bytes).base64EncodedData()
        var mapped: [UInt8] = []
        mapped.reserveCapacity(base64.count)
        for byte in base64 {
            switch byte {
            case UInt8(ascii: "+"): mapped.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): mapped.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: mapped.append(byte)
            }
        }
        return String(decoding: mapped, as: UTF8.self)
    }

    /// The bytes, or `nil` for text that is not unpadded base64url.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = String(text).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }.reduce(into: "") { $0.append($1) }
        guard !base64.contains("=") else { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
