import Crypto
import CryptoExtras
import Foundation

/// The public key a DPoP proof carries in its `jwk` header (RFC 9449 §4.2), read with
/// swift-crypto: it verifies the proof's signature and names the key by its RFC 7638 thumbprint,
/// the `jkt` that bound tokens carry (§6.1).
struct DPoPPublicKey: Sendable {
    private enum Verifier: Sendable {
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case p521(P521.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
    }

    /// Members that only a private or symmetric key has (RFC 7518 §6.2.2, §6.3.2, §6.4, RFC 8037 §2).
    static let privateMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    private let verifier: Verifier
    /// base64url(SHA-256(the required members in lexicographic order)), RFC 7638 §3.
    let thumbprint: String

    /// Why the key cannot be used: the reason, for the error description.
    struct Unusable: Error {
        let reason: String
    }

    init(jwk: [String: JSONValue], algorithm: String) throws(Unusable) {
        if let member = Self.privateMembers.first(where: { jwk[$0] != nil }) {
            throw Unusable(
                reason: "the jwk header holds the private member '\(member)'; it must be the public key only"
            )
        }
        func coordinate(_ name: String) throws(Unusable) -> (text: String, bytes: Data) {
            guard let text = jwk[name]?.stringValue, let bytes = Base64URL.decode(Substring(text)), !bytes.isEmpty
            else { throw Unusable(reason: "the jwk has no usable '\(name)'") }
            return (text, bytes)
        }
        let kty = jwk["kty"]?.stringValue ?? ""
        do {
            switch (kty, algorithm) {
            case ("EC", "ES256"), ("EC", "ES384"), ("EC", "ES512"):
                let curve = jwk["crv"]?.stringValue ?? ""
                let x = try coordinate("x")
                let y = try coordinate("y")
                let point = Data([0x04]) + x.bytes + y.bytes
                switch (curve, algorithm) {
                case ("P-256", "ES256"): verifier = .p256(try P256.Signing.PublicKey(x963Representation: point))
                case ("P-384", "ES384"): verifier = .p384(try P384.Signing.PublicKey(x963Representation: point))
                case ("P-521", "ES512"): verifier = .p521(try P521.Signing.PublicKey(x963Representation: point))
                default: throw Unusable(reason: "curve '\(curve)' does not go with alg \(algorithm)")
                }
                thumbprint = Self.thumbprint(#"{"crv":"\#(curve)","kty":"EC","x":"\#(x.text)","y":"\#(y.text)"}"#)
            case ("RSA", "RS256"), ("RSA", "PS256"):
                let n = try coordinate("n")
                let e = try coordinate("e")
                verifier = .rsa(try _RSA.Signing.PublicKey(n: n.bytes, e: e.bytes))
                thumbprint = Self.thumbprint(#"{"e":"\#(e.text)","kty":"RSA","n":"\#(n.text)"}"#)
            case ("OKP", "EdDSA"):
                let curve = jwk["crv"]?.stringValue ?? ""
                guard curve == "Ed25519" else { throw Unusable(reason: "curve '\(curve)' is not Ed25519") }
                let x = try coordinate("x")
                verifier = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x.bytes))
                thumbprint = Self.thumbprint(#"{"crv":"Ed25519","kty":"OKP","x":"\#(x.text)"}"#)
            default:
                throw Unusable(reason: "a '\(kty)' key cannot sign \(algorithm)")
            }
        } catch let unusable as Unusable {
            throw unusable
        } catch {
            throw Unusable(reason: "the jwk is not a valid \(kty) public key")
        }
    }

    private static func thumbprint(_ canonical: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(canonical.utf8))))
    }

    /// Whether `signature` signs `input` under `algorithm` (RFC 7518 §3: ECDSA as `r ‖ s`).
    func verifies(_ signature: Data, over input: Data, algorithm: String) -> Bool {
        switch verifier {
        case .p256(let key):
            (try? P256.Signing.ECDSASignature(rawRepresentation: signature)).map {
                key.isValidSignature($0, for: input)
            } ?? false
        case .p384(let key):
            (try? P384.Signing.ECDSASignature(rawRepresentation: signature)).map {
                key.isValidSignature($0, for: input)
            } ?? false
        case .p521(let key):
            (try? P521.Signing.ECDSASignature(rawRepresentation: signature)).map {
                key.isValidSignature($0, for: input)
            } ?? false
        case .rsa(let key):
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature),
                for: input,
                padding: algorithm == "PS256" ? .PSS : .insecurePKCS1v1_5
            )
        case .ed25519(let key):
            key.isValidSignature(signature, for: input)
        }
    }
}
