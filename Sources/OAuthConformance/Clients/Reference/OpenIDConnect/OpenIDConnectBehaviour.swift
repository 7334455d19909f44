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

extension OpenIDConnectBehaviour {
    /// The deliberate bugs of its knobs (`ClientBehaviour.openIDConnect`), each switching one knob from its conforming value, as a
    /// real library's bug would: `DefectiveClient.catalogue` holds them, and `conformance selftest`
    /// proves that some scenario fails each. A new knob gets its defect here, beside it.
    static let defects: [DefectiveClient] = [
        .defect(
            "id-token-signature-unchecked",
            "checks the ID token's header and claims but never its signature, so another key's token passes"
        ) { $0.openIDConnect.checksIDTokenSignature = false },
        .defect("id-token-alg-none", "accepts an unsigned ID token (alg: none)") {
            $0.openIDConnect.acceptsUnsignedIDTokens = true
        },
        .defect(
            "id-token-algorithm-confusion",
            "takes the algorithm from the ID token's header, so HS256 keyed with the provider's RSA public key passes"
        ) { $0.openIDConnect.takesAlgorithmFromTokenHeader = true },
        .defect("id-token-ignores-nonce", "accepts an ID token whatever its nonce, open to ID token replay") {
            $0.openIDConnect.checksNonce = false
        },
        .defect("id-token-ignores-aud", "accepts an ID token issued to another client") {
            $0.openIDConnect.checksAudience = false
        },
        .defect(
            "id-token-ignores-azp",
            "accepts an ID token presented by another party (azp) or with several audiences and no azp"
        ) {
            $0.openIDConnect.checksAuthorizedParty = false
        },
        .defect("id-token-ignores-exp", "accepts an expired ID token, or one without exp") {
            $0.openIDConnect.checksExpiry = false
        },
        .defect("id-token-ignores-iat", "accepts an ID token without iat, or issued in the future") {
            $0.openIDConnect.checksIssuedAt = false
        },
        .defect("id-token-ignores-at-hash", "accepts an ID token whose at_hash does not match the access token") {
            $0.openIDConnect.checksAccessTokenHash = false
        },
        .defect("jwks-never-refetched", "keeps the first JWKS forever, so a rotated signing key is never picked up") {
            $0.openIDConnect.refetchesKeysForUnknownKeyID = false
        },
        .defect("jwks-fetched-every-token", "fetches the JWKS again for every ID token instead of caching it") {
            $0.openIDConnect.fetchesKeysForEveryToken = true
        },
        .defect("refresh-accepts-changed-sub", "accepts a refreshed ID token for another user (a changed sub)") {
            $0.openIDConnect.checksSubjectOnRefresh = false
        },
        .defect("userinfo-sub-unchecked", "uses a userinfo response whose sub is not the ID token's") {
            $0.openIDConnect.checksUserinfoSubject = false
        },
        .defect("predictable-nonce", "sends the same fixed nonce with every authentication request") {
            $0.openIDConnect.freshNonces = false
        },
        .defect(
            "clock-skew-narrower-than-declared",
            "allows no clock skew on ID token times, though its profile declares 60 s"
        ) {
            $0.openIDConnect.allowedClockSkew = .zero
        },
        .defect(
            "jwks-refetch-interval-ignored",
            "fetches the JWKS again for every unknown kid, though its profile declares 30 s between such fetches"
        ) {
            $0.openIDConnect.minimumKeySetRefetchInterval = .zero
        },
    ]
}
