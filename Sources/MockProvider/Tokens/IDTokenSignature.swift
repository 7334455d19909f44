import Foundation

/// How one ID token is signed: the header's `alg` and `kid`, and the signature bytes.
struct IDTokenSignature {
    private enum Method {
        case key(SigningKey, IDTokenAlgorithm)
        /// A key other than `kid`'s, presented under `kid`.
        case impostor(SigningKey, IDTokenAlgorithm, kid: String)
        case hmac(secret: Data, label: String, kid: String?)
        case unsigned
    }

    private let method: Method

    init(policy: IDTokenAlgorithm, signing: IDTokenAlteration.Signing?, rotated: Bool, clientSecret: String) {
        let keys = ProviderSigningKeys.shared
        let key = keys.signing(policy, rotated: rotated)
        let secret = Data(clientSecret.utf8)
        switch (signing, policy) {
        case (nil, .hs256), (.clientSecret, _):
            method = .hmac(secret: secret, label: "HS256 with the client secret", kid: nil)
        case (nil, _):
            method = .key(key, policy)
        case (.otherKey, .hs256):
            method = .hmac(
                secret: secret + Data("-other".utf8),
                label: "HS256 with a secret other than the client's",
                kid: nil
            )
        case (.otherKey, _):
            method = .impostor(keys.other(policy, rotated: rotated), policy, kid: key.kid)
        case (.unsigned, _):
            method = .unsigned
        case (.hs256WithPublicKey, _):
            method = .hmac(
                secret: Data(key.publicKeyPEM.utf8),
                label: "HS256 keyed with the PEM of \(key.kid)'s public key",
                kid: key.kid
            )
        }
    }

    var algorithm: String {
        switch method {
        case .key(_, let algorithm), .impostor(_, let algorithm, _): algorithm.rawValue
        case .hmac: IDTokenAlgorithm.hs256.rawValue
        case .unsigned: "none"
        }
    }

    var keyID: String? {
        switch method {
        case .key(let key, _): key.kid
        case .impostor(_, _, let kid): kid
        case .hmac(_, _, let kid): kid
        case .unsigned: nil
        }
    }

    var description: String {
        switch method {
        case .key(let key, let algorithm): "\(key.kid) (\(algorithm.rawValue))"
        case .impostor(let key, let algorithm, let kid): "\(key.kid) (\(algorithm.rawValue)) under kid \(kid)"
        case .hmac(_, let label, _): label
        case .unsigned: "none"
        }
    }

    func sign(_ input: [UInt8]) -> [UInt8] {
        switch method {
        case .key(let key, let algorithm), .impostor(let key, let algorithm, _):
            key.signature(over: input, as: algorithm) ?? []
        case .hmac(let secret, _, _):
            CompactJWS.hmacSHA256(input, key: secret)
        case .unsigned:
            []
        }
    }
}
