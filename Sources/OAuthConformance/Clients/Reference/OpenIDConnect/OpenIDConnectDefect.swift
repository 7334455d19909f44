/// A reference client with one OpenID Connect relying-party bug, as `DefectiveClient` has for
/// OAuth: each switches exactly one knob of `OpenIDConnectBehaviour`, and the suite must catch each.
public struct OpenIDConnectDefect: Sendable {
    public let name: String
    public let bug: String
    public let behaviour: OpenIDConnectBehaviour

    public static let catalogue: [OpenIDConnectDefect] = [
        defect(
            "id-token-signature-unchecked",
            "checks the ID token's header and claims but never its signature, so another key's token passes"
        ) { $0.checksIDTokenSignature = false },
        defect("id-token-alg-none", "accepts an unsigned ID token (alg: none)") {
            $0.acceptsUnsignedIDTokens = true
        },
        defect(
            "id-token-algorithm-confusion",
            "takes the algorithm from the ID token's header, so HS256 keyed with the provider's RSA public key passes"
        ) { $0.takesAlgorithmFromTokenHeader = true },
        defect("id-token-ignores-nonce", "accepts an ID token whatever its nonce, open to ID token replay") {
            $0.checksNonce = false
        },
        defect("id-token-ignores-aud", "accepts an ID token issued to another client") {
            $0.checksAudience = false
        },
        defect(
            "id-token-ignores-azp",
            "accepts an ID token presented by another party (azp) or with several audiences and no azp"
        ) {
            $0.checksAuthorizedParty = false
        },
        defect("id-token-ignores-exp", "accepts an expired ID token, or one without exp") {
            $0.checksExpiry = false
        },
        defect("id-token-ignores-iat", "accepts an ID token without iat, or issued in the future") {
            $0.checksIssuedAt = false
        },
        defect("id-token-ignores-at-hash", "accepts an ID token whose at_hash does not match the access token") {
            $0.checksAccessTokenHash = false
        },
        defect("jwks-never-refetched", "keeps the first JWKS forever, so a rotated signing key is never picked up") {
            $0.refetchesKeysForUnknownKeyID = false
        },
        defect("jwks-fetched-every-token", "fetches the JWKS again for every ID token instead of caching it") {
            $0.fetchesKeysForEveryToken = true
        },
        defect("refresh-accepts-changed-sub", "accepts a refreshed ID token for another user (a changed sub)") {
            $0.checksSubjectOnRefresh = false
        },
        defect("userinfo-sub-unchecked", "uses a userinfo response whose sub is not the ID token's") {
            $0.checksUserinfoSubject = false
        },
    ]

    private static func defect(
        _ name: String,
        _ bug: String,
        _ change: (inout OpenIDConnectBehaviour) -> Void
    ) -> OpenIDConnectDefect {
        var behaviour = OpenIDConnectBehaviour.conforming
        change(&behaviour)
        return OpenIDConnectDefect(name: name, bug: bug, behaviour: behaviour)
    }
}
