import Crypto
import Foundation

/// The `nonce` of each authentication request (OIDC Core §3.1.2.1, §15.5.2): fresh for every
/// request and unguessable, so an ID token captured from another sign-in cannot be replayed into
/// this one. The client keeps the nonce with the pending request and hands it to
/// `IDTokenValidator` as `.authentication(nonce:)` when the code is redeemed.
public struct NonceSource: Sendable {
    /// 256 bits, twice the 128 that OIDC Core §15.5.2 and RFC 6749 §10.10 set as the floor.
    static let bytes = 32

    public init() {}

    /// A new nonce from the system's CSPRNG (swift-crypto's key generation), base64url without padding.
    public func next() -> String {
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: Self.bytes * 8))
        return key.withUnsafeBytes { AuthorizationRequest.base64URL(Data($0)) }
    }
}
