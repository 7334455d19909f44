/// Serve the token request normally, issuing an ID token altered this way (when one is due: the
/// grant began with scope `openid`). Changes to the ID token a token response carries (OpenID
/// Connect Core §2, §3.1.3.7): claims set, omitted or placed in time, another signature, another
/// `kid`. The token is still recorded as issued, as altered, so checks can name it.
public struct IDTokenAlteration: ProviderMisbehaviour {
    /// How the altered token is signed instead of with the provider's signing key.
    public enum Signing: String, Sendable, Equatable, CaseIterable {
        /// The other key of the same family, under the `kid` of the key the JWKS publishes: a
        /// token whose header and claims are right and whose signature is not.
        case otherKey = "other_key"
        /// `alg: none` and an empty signature (RFC 7515 Appendix A.5, RFC 8725 §3.1). Not `none`
        /// in Swift, where `.none` on an optional would read as nil.
        case unsigned = "none"
        /// HS256 keyed with the PEM text of the signing key's public key (algorithm confusion,
        /// RFC 8725 §2.1), with that key's `kid`.
        case hs256WithPublicKey = "hs256_with_public_key"
        /// HS256 keyed with the client secret (OpenID Connect Core §10.1), no `kid`.
        case clientSecret = "client_secret"
    }

    public enum KeyID: Sendable, Equatable {
        /// No `kid` in the header.
        case absent
        /// This `kid`, e.g. one in no key set.
        case replace(String)
    }

    /// Claims set to these values (added when absent): `iss`, `aud` as an array, a wrong `at_hash`.
    public var set: [String: JSONValue]
    /// Claims removed.
    public var omit: Set<String>
    /// Claims set to the Unix time of now plus this much virtual time: `exp` an hour ago.
    public var fromNow: [String: Duration]
    public var signing: Signing?
    public var keyID: KeyID?

    /// Claims moved this many times the clock skew the client declares further from now, on top of
    /// `fromNow`: `exp` a minute beyond the client's skew in the past is `fromNow: -1m` with `-1` here.
    public var fromNowInClientSkews: [String: Int]

    public init(
        set: [String: JSONValue] = [:],
        omit: Set<String> = [],
        fromNow: [String: Duration] = [:],
        fromNowInClientSkews: [String: Int] = [:],
        signing: Signing? = nil,
        keyID: KeyID? = nil
    ) {
        self.set = set
        self.omit = omit
        self.fromNow = fromNow
        self.fromNowInClientSkews = fromNowInClientSkews
        self.signing = signing
        self.keyID = keyID
    }

    /// Only token responses carry ID tokens: at any other endpoint the request is served as it is.
    public func answer(_ context: MisbehaviourContext) -> ProviderResponse {
        context.endpoint == .token ? context.tokenAnswer(self) : context.correctAnswer()
    }

    /// The claims as altered; `unixTime` turns an instant of virtual time into seconds since 1970.
    func apply(
        to claims: [String: JSONValue],
        now: Duration,
        clientClockSkew: Duration,
        unixTime: (Duration) -> Int
    ) -> [String: JSONValue] {
        var altered = claims
        for name in omit { altered[name] = nil }
        altered.merge(set) { _, scripted in scripted }
        for name in Set(fromNow.keys).union(fromNowInClientSkews.keys) {
            let offset = (fromNow[name] ?? .zero) + clientClockSkew * (fromNowInClientSkews[name] ?? 0)
            altered[name] = .integer(unixTime(now + offset))
        }
        return altered
    }
}

extension RuleAction {
    public static func alterIDToken(_ alteration: IDTokenAlteration) -> RuleAction { RuleAction(alteration) }
}
