/// The JWS algorithms the provider signs ID tokens with (OpenID Connect Core §3.1.3.7, RFC 7518 §3).
public enum IDTokenAlgorithm: String, Sendable, Hashable, CaseIterable {
    case rs256 = "RS256"
    case ps256 = "PS256"
    case es256 = "ES256"
    /// Keyed with the client secret (OpenID Connect Core §10.1), for a client registered so.
    case hs256 = "HS256"
}

/// How the provider issues ID tokens when an authorization request's scope holds `openid`, and
/// which signing keys its JWKS publishes.
public struct IDTokenPolicy: Sendable, Equatable {
    /// What `jwks_uri` publishes.
    public enum Publication: String, Sendable, Equatable, CaseIterable {
        /// The key that signs ID tokens only (and, after a rotation, the retired one unless retired).
        case signingKey = "signing_key"
        /// An RSA and a P-256 key: several keys, so a token without `kid` is ambiguous.
        case allKeys = "all_keys"
    }

    public var algorithm: IDTokenAlgorithm
    public var lifetime: Duration
    public var publication: Publication
    /// `nil`: the signing keys never change.
    public var rotation: KeyRotation?

    public init(
        algorithm: IDTokenAlgorithm = .rs256,
        lifetime: Duration = .seconds(3600),
        publication: Publication = .signingKey,
        rotation: KeyRotation? = nil
    ) {
        self.algorithm = algorithm
        self.lifetime = lifetime
        self.publication = publication
        self.rotation = rotation
    }
}

/// A signing key rotation (OpenID Connect Core §10.1.1): from an instant or from the n-th ID token
/// on, tokens are signed with a new key under a new `kid`, which the JWKS publishes from then on.
public struct KeyRotation: Sendable, Equatable {
    public enum Trigger: Sendable, Equatable {
        /// Virtual time since the scenario started.
        case at(Duration)
        /// The n-th ID token the provider issues (from 1) is the first signed with the new key.
        case fromIDToken(Int)
    }

    public var trigger: Trigger
    /// Whether the JWKS stops publishing the old key once the new one is in use.
    public var retireOldKey: Bool

    public init(_ trigger: Trigger, retireOldKey: Bool = false) {
        self.trigger = trigger
        self.retireOldKey = retireOldKey
    }

    /// Whether the new key is in use at `now`, once `issued` ID tokens exist (for a token being
    /// issued, counting itself).
    func hasRotated(at now: Duration, idTokensIssued issued: Int) -> Bool {
        switch trigger {
        case .at(let instant): now >= instant
        case .fromIDToken(let ordinal): issued >= ordinal
        }
    }
}
