import Foundation
import JWTKit

/// `jwks_uri` (RFC 7517 §5): the public keys that verify ID tokens now. After a key rotation it
/// publishes the new key first and the old one until it is retired; with `all_keys` it publishes
/// an RSA and a P-256 key, so a token without `kid` does not name its key.
struct JWKSEndpoint: Sendable {
    let policy: IDTokenPolicy
    let ledger: IDTokenLedger

    func serve(at now: Duration) -> ProviderResponse {
        let keys = ProviderSigningKeys.shared
        let rotated = policy.rotation?.hasRotated(at: now, idTokensIssued: ledger.count) ?? false
        let retired = rotated && policy.rotation?.retireOldKey == true
        // HS256 tokens need no public key; the RSA key is published all the same, as providers do,
        // and is what `hs256_with_public_key` keys its HMAC with.
        let families: [IDTokenAlgorithm] =
            switch (policy.publication, policy.algorithm) {
            case (.signingKey, .hs256): [.rs256]
            case (.signingKey, let algorithm): [algorithm]
            case (.allKeys, .ps256): [.ps256, .es256]
            case (.allKeys, _): [.rs256, .es256]
            }
        var published: [JWK] = []
        for algorithm in families {
            published.append(keys.signing(algorithm, rotated: rotated).publicJWK(for: algorithm))
            if rotated, !retired {
                published.append(keys.signing(algorithm, rotated: false).publicJWK(for: algorithm))
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and optionals cannot fail.
        let body = (try? encoder.encode(JWKS(keys: published))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return ProviderResponse(
            status: 200,
            headers: [HeaderField("Content-Type", "application/json")],
            body: body
        )
    }
}
