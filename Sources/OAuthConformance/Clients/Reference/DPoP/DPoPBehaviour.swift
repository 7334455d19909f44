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

extension DPoPBehaviour {
    /// The deliberate bugs of its knobs (`ClientBehaviour.dpop`), each switching one knob from its conforming value, as a
    /// real library's bug would: `DefectiveClient.catalogue` holds them, and `conformance selftest`
    /// proves that some scenario fails each. A new knob gets its defect here, beside it.
    static let defects: [DefectiveClient] = [
        .defect("dpop-bound-token-as-bearer", "sends its DPoP-bound access token as a Bearer token, with no proof") {
            $0.dpop.presentsBoundTokensWithProof = false
        },
        .defect("reused-dpop-proof", "sends the first DPoP proof it made for a method and URL again") {
            $0.dpop.freshProofPerRequest = false
        },
        .defect("dpop-htu-with-query", "puts the query string in its DPoP proofs' htu") {
            $0.dpop.dropsQueryFromHTU = false
        },
        .defect("ignores-dpop-nonce", "gives up when a server demands a DPoP nonce, never retrying with it") {
            $0.dpop.nonceRetries = 0
        },
        .defect("loops-on-dpop-nonce", "retries with every new DPoP nonce a server demands, up to ten times") {
            $0.dpop.nonceRetries = 10
        },
        .defect("retries-dpop-nonce-twice", "retries twice when a server demands one new DPoP nonce after another") {
            $0.dpop.nonceRetries = 2
        },
        .defect(
            "forgets-dpop-nonce",
            "uses a server's DPoP nonce for the retry it was demanded for, and then forgets it"
        ) {
            $0.dpop.keepsNonceForLaterRequests = false
        },
        .defect("one-dpop-nonce-for-all-servers", "sends the latest DPoP nonce of any server to every server") {
            $0.dpop.keepsNoncesPerServer = false
        },
        .defect(
            "dpop-nonce-only-from-errors",
            "learns DPoP nonces from use_dpop_nonce errors only, never from a successful answer"
        ) {
            $0.dpop.readsNonceFromEveryAnswer = false
        },
        .defect(
            "bearer-answer-used-as-dpop",
            "keeps a Bearer answer to its DPoP proof as if it were bound, and sends it with the DPoP scheme"
        ) {
            $0.dpop.bearerAnswer = .useAsDPoP
        },
        .defect("new-dpop-key-per-token-request", "makes a new DPoP key for every token request, refreshes included") {
            $0.dpop.keepsKeyAcrossRequests = false
        },
    ]
}
