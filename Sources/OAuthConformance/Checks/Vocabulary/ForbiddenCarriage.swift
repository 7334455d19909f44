/// What a request must never carry, in `never: { carries: … }`.
public enum ForbiddenCarriage: String, Sendable, Hashable, CaseIterable {
    /// An access token that had expired when the request arrived, as its bearer credential.
    case expiredAccessToken = "expired_access_token"
    /// Any refresh token the provider issued, anywhere in the request: a header, the query, the body.
    case refreshToken = "refresh_token"
    /// An access token in the query string: an `access_token` parameter, or any issued access
    /// token as a query value (RFC 6750 §2.3, RFC 9700 §4.3.2).
    case accessTokenInQuery = "access_token_in_query"
    /// The client's secret, anywhere: a header (HTTP Basic decoded), the query, the body. For the
    /// resource server, which has no business seeing it (RFC 6749 §10.4 / §2.3.1).
    case clientSecret = "client_secret"
    /// The client's secret in the query string, where logs keep it (RFC 6749 §2.3.1).
    case clientSecretInQuery = "client_secret_in_query"
    /// Any credential: an `Authorization` header, any issued token, the client secret, the
    /// user's password, an authorization code or PKCE verifier. For requests that should never
    /// carry one at all, such as those following a redirect to another origin.
    case credentials
    /// A DPoP-bound access token presented as a bearer token: with the `Bearer` scheme, or without
    /// a `DPoP` proof (RFC 9449 §7.1).
    case bearerForDPoPToken = "bearer_for_dpop_token"
    /// A DPoP proof whose `jti` an earlier request's proof already had (RFC 9449 §4.2, §11.1).
    case replayedDPoPProof = "replayed_dpop_proof"
    /// A DPoP proof without the latest nonce the server it goes to has handed out, in an error or
    /// in a success (RFC 9449 §8.2, §9).
    case staleDPoPNonce = "stale_dpop_nonce"

    /// e.g. "carrying an expired access token".
    public var phrase: String {
        switch self {
        case .expiredAccessToken: "carrying an expired access token"
        case .refreshToken: "carrying a refresh token"
        case .accessTokenInQuery: "carrying an access token in the query string"
        case .clientSecret: "carrying the client secret"
        case .clientSecretInQuery: "carrying the client secret in the query string"
        case .credentials: "carrying any credential"
        case .bearerForDPoPToken: "presenting a DPoP-bound access token as a bearer token"
        case .replayedDPoPProof: "carrying a DPoP proof whose jti was used before"
        case .staleDPoPNonce: "carrying a DPoP proof without the server's latest nonce"
        }
    }
}
