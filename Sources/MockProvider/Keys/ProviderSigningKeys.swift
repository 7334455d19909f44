import Crypto
import CryptoExtras

/// The provider's ID token signing keys, minted once per process and shared by every provider:
/// generating an RSA-2048 key takes long enough that a fresh one per scenario would dominate a
/// suite's run time. Each algorithm family has a key in use and a second one, which signs after a
/// key rotation and stands in as "another key carrying the expected kid".
public struct ProviderSigningKeys: Sendable {
    public let rsa: SigningKey
    public let otherRSA: SigningKey
    public let p256: SigningKey
    public let otherP256: SigningKey

    /// Minted on first use (a static `let` is initialized lazily and exactly once).
    public static let shared = ProviderSigningKeys()

    private init() {
        func rsaKey(_ kid: String) -> SigningKey {
            // Only a broken crypto library fails to generate a 2048-bit key; nothing can go on then.
            SigningKey(kid: kid, material: .rsa(try! _RSA.Signing.PrivateKey(keySize: .bits2048)))
        }
        rsa = rsaKey("rsa-1")
        otherRSA = rsaKey("rsa-2")
        p256 = SigningKey(kid: "ec-1", material: .p256(P256.Signing.PrivateKey()))
        otherP256 = SigningKey(kid: "ec-2", material: .p256(P256.Signing.PrivateKey()))
    }

    /// The key that signs ID tokens with `algorithm`: the first key of its family, or the second
    /// once the keys have rotated. HS256 has none (it is keyed with the client secret); it is
    /// given the RSA key, which the JWKS still publishes and `hs256_with_public_key` abuses.
    func signing(_ algorithm: IDTokenAlgorithm, rotated: Bool) -> SigningKey {
        let (first, second) = algorithm == .es256 ? (p256, otherP256) : (rsa, otherRSA)
        return rotated ? second : first
    }

    /// The other key of the same family: a key the JWKS does not publish for this period.
    func other(_ algorithm: IDTokenAlgorithm, rotated: Bool) -> SigningKey {
        signing(algorithm, rotated: !rotated)
    }
}
