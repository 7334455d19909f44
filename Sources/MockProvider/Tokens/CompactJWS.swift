import Crypto
import Foundation

/// JWS compact serialization (RFC 7515 §7.1), assembled by hand so that the provider can also
/// produce what no JWT library would: `alg: none`, HS256 keyed with a public key, a signature by
/// a key other than the one the `kid` names.
enum CompactJWS {
    /// `BASE64URL(header) . BASE64URL(claims) . BASE64URL(signature)`; `sign` gets the signing input.
    static func assemble(header: JSONValue, claims: JSONValue, sign: ([UInt8]) -> [UInt8]) -> String {
        let input =
            Base64URL.encode(Data(header.serialized().utf8)) + "." + Base64URL.encode(Data(claims.serialized().utf8))
        return input + "." + Base64URL.encode(sign(Array(input.utf8)))
    }

    static func hmacSHA256(_ input: [UInt8], key: some DataProtocol) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: Data(key))))
    }

    /// OpenID Connect Core §3.1.3.6 `at_hash` (and §3.3.2.11 `c_hash`): the left half of the SHA-256
    /// of the ASCII value, base64url.
    static func leftHalfHash(of value: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(value.utf8))).prefix(16))
    }
}
