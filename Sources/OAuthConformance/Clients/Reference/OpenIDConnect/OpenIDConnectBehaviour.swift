/// The OpenID Connect relying-party decisions of the reference client, each set to its conforming
/// value. Like `ClientBehaviour`, every knob is one rule a real library may get wrong: each entry of
/// OpenID Connect entry of `DefectiveClient.catalogue` switches exactly one of them, so a defect is one flag and never
/// a copied validator.
public struct OpenIDConnectBehaviour: Sendable, Equatable {
    /// IT-04: the ID token's signature is verified with the provider's key. Off, the header and the
    /// claims are still checked, which is the blind spot OIDF conformance issue 1375 describes.
    public var checksIDTokenSignature = true
    /// IT-05 (RFC 8725 §3.1): an ID token with `alg: none` is accepted. A profile may declare it for
    /// the code flow over TLS; the reference client does not.
    public var acceptsUnsignedIDTokens = false
    /// IT-06 (RFC 8725 §2.1): the algorithm is taken from the token's header instead of from the
    /// registration, so an HS256 token keyed with the provider's public RSA key passes.
    public var takesAlgorithmFromTokenHeader = false
    /// IT-11 (OIDC Core §3.1.3.7 step 11): `nonce` must be the one sent in the authentication request.
    public var checksNonce = true
    /// IT-11 (§15.5.2): every authentication request gets a fresh, unguessable nonce.
    public var freshNonces = true
    /// IT-02 (step 3): `aud` must contain the client_id.
    public var checksAudience = true
    /// IT-03 (steps 4–5): several audiences need `azp`, and an `azp` must be the client_id.
    public var checksAuthorizedParty = true
    /// IT-08 (step 9): `exp` must be present and in the future.
    public var checksExpiry = true
    /// IT-09 (step 10, §2): `iat` must be present and not in the future.
    public var checksIssuedAt = true
    /// IT-12 (§3.1.3.8, §3.2.2.9): an `at_hash` that is present must match the access token.
    public var checksAccessTokenHash = true
    /// KD-01: a token naming a key the cached JWKS does not hold fetches the JWKS again, once.
    public var refetchesKeysForUnknownKeyID = true
    /// KD-06: the JWKS is fetched for every ID token instead of being cached.
    public var fetchesKeysForEveryToken = false
    /// OR-01 (§12.2): a refreshed ID token must name the same `sub` as the original.
    public var checksSubjectOnRefresh = true
    /// UI-01 (§5.3.2): a userinfo response whose `sub` is not the ID token's is discarded.
    public var checksUserinfoSubject = true
    /// POLICY (IT-08, IT-09): how far the provider's clock may be from the client's for `exp` and `iat`.
    public var allowedClockSkew: Duration = .seconds(60)
    /// POLICY (KD-02): the shortest time between two JWKS fetches caused by unknown keys, so tokens
    /// naming keys that do not exist cannot make the client hammer the JWKS endpoint. A first
    /// rotation is still picked up at once: the interval counts from the previous such refetch.
    public var minimumKeySetRefetchInterval: Duration = .seconds(30)

    public init() {}

    public static let conforming = OpenIDConnectBehaviour()

    /// The part of the behaviour the JWKS cache applies.
    public var keySetPolicy: JWKSCache.Policy {
        JWKSCache.Policy(
            refetchesForUnknownKeyID: refetchesKeysForUnknownKeyID,
            fetchesForEveryToken: fetchesKeysForEveryToken,
            minimumRefetchInterval: minimumKeySetRefetchInterval
        )
    }
}
