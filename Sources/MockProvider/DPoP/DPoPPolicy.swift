/// DPoP (RFC 9449) as the provider offers it: proofs verified at the token endpoint and the
/// resource, tokens bound to the proof's key, and the server nonces a scenario asks for.
public struct DPoPPolicy: Sendable, Equatable {
    /// A server that hands out DPoP nonces of its own (RFC 9449 §9: the authorization server's and
    /// the resource server's are different, and each is accepted only where it was issued).
    public enum NonceServer: String, Sendable, Hashable, CaseIterable {
        /// The authorization server, at its token endpoint (§8).
        case token
        /// The protected resource (§9).
        case resource
    }

    /// The servers that demand a nonce: a proof without their current one is answered
    /// `use_dpop_nonce` with a `DPoP-Nonce` header.
    public var nonceRequiredAt: Set<NonceServer>
    /// After this many proofs accepted with one nonce, the server moves to a new one and hands it
    /// out in the `DPoP-Nonce` header of that success (§8.2); the old one is refused from then on.
    /// `nil`: a nonce stays good.
    public var nonceRotatesEvery: Int?
    /// Refresh tokens are bound to the key of the proof that obtained them, as §5 has it for a
    /// public client: a refresh needs a proof by that same key.
    public var refreshTokensBound: Bool
    /// The token endpoint answers a request with a proof with an unbound token of `token_type`
    /// Bearer, as a server that does not (or no longer) binds tokens does (§7.1 downgrade).
    public var answersBearer: Bool

    /// How old a proof's `iat` may be, and how far ahead of the provider's clock (§11.1).
    public static let proofMaximumAge: Duration = .seconds(300)
    public static let proofMaximumLead: Duration = .seconds(60)
    /// The algorithms a proof may be signed with: asymmetric ones only (§11.6).
    public static let signingAlgorithms = ["ES256", "ES384", "ES512", "RS256", "PS256", "EdDSA"]

    public init(
        nonceRequiredAt: Set<NonceServer> = [],
        nonceRotatesEvery: Int? = nil,
        refreshTokensBound: Bool = false,
        answersBearer: Bool = false
    ) {
        self.nonceRequiredAt = nonceRequiredAt
        self.nonceRotatesEvery = nonceRotatesEvery
        self.refreshTokensBound = refreshTokensBound
        self.answersBearer = answersBearer
    }
}
