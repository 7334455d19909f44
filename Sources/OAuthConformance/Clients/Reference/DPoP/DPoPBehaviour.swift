/// The reference client's DPoP decisions (catalogue section F), each set to its conforming value;
/// each DPoP defect of `DefectiveClient.catalogue` switches exactly one.
public struct DPoPBehaviour: Sendable, Equatable {
    /// DP-07 (§7.1): what a `token_type: Bearer` answer to a request with a proof becomes.
    public enum BearerAnswer: Sendable, Equatable {
        /// Refused (`policies.dpop_downgrade: refuse`, what the reference client declares).
        case refuse
        /// Used as the bearer token it is (`use_as_bearer`).
        case useAsBearer
        /// The defect: kept as if it were bound, and sent with the DPoP scheme, where it is refused.
        case useAsDPoP
    }

    /// DP-07: the reference client declares `dpop_downgrade: refuse`.
    public var bearerAnswer = BearerAnswer.refuse
    /// DP-02 (RFC 9449 §7.1): a bound token goes as `Authorization: DPoP` with a proof carrying
    /// `ath`. Off, it goes as `Bearer`, with no proof.
    public var presentsBoundTokensWithProof = true
    /// DP-01 (§4.2, §11.1): every request gets a proof of its own, with a new `jti`. Off, the
    /// first proof for a method and URL is sent again.
    public var freshProofPerRequest = true
    /// DP-01 (§4.2): `htu` is the target URI without its query and fragment. Off, the query stays.
    public var dropsQueryFromHTU = true
    /// DP-03, DP-04 (§8, §9): how many times one request is sent again with a nonce the server
    /// demanded. The conforming client retries once; 0 gives up, more loops.
    public var nonceRetries = 1
    /// §8.2: a server's nonce is used in every later proof to it until the server supplies
    /// another. Off, a nonce serves only the retry it was demanded for.
    public var keepsNonceForLaterRequests = true
    /// §9: the authorization server's nonce and each resource server's are kept apart, each used
    /// only where it was issued. Off, the latest nonce from any server goes to every server.
    public var keepsNoncesPerServer = true
    /// DP-05 (§8.2): a `DPoP-Nonce` in any answer, a success included, is the nonce from then on.
    /// Off, only a `use_dpop_nonce` error teaches the client a nonce.
    public var readsNonceFromEveryAnswer = true
    /// DP-06 (§5): one key for the session, so a bound refresh token is presented with proofs by
    /// the key it is bound to. Off, a new key is made for every token request.
    public var keepsKeyAcrossRequests = true
    public init() {}

    public static let conforming = DPoPBehaviour()
}
