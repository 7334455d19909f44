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
    /// A client ID, client secret or token that one authorization server issued, in a request to
    /// another's endpoints (MCP "Authorization Server Binding", `AuthorizationServerBinding`).
    case anotherAuthorizationServersCredentials = "another_authorization_servers_credentials"

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
        case .anotherAuthorizationServersCredentials: "carrying another authorization server's credentials"
        }
    }

    /// Its row in the table of docs/scenario-language/expect.md, after the checks' own.
    var documentation: CheckDocumentation {
        switch self {
        case .expiredAccessToken:
            CheckDocumentation(
                form: #"`never: { …, carries: expired_access_token }`"#,
                passesWhen:
                    #"No matching request carries, as its bearer credential, an access token that had expired when it arrived."#
            )
        case .refreshToken:
            CheckDocumentation(
                form: #"`never: { …, carries: refresh_token }`"#,
                passesWhen:
                    #"No matching request carries any refresh token the provider issued, anywhere: a header (any header, any scheme), a query parameter, a form field or a body. Use it with `endpoint: resource` (refresh tokens belong at the token endpoint only, RFC 6749 §10.4)."#
            )
        case .accessTokenInQuery:
            CheckDocumentation(
                form: #"`never: { …, carries: access_token_in_query }`"#,
                passesWhen:
                    #"No matching request has an access token in its query string: an `access_token` parameter (RFC 6750 §2.3), or any issued access token as a query value (RFC 9700 §4.3.2)."#
            )
        case .clientSecret:
            CheckDocumentation(
                form: #"`never: { …, carries: client_secret }`"#,
                passesWhen:
                    #"No matching request carries the client's secret anywhere: a header (HTTP Basic credentials decoded), a query parameter, a form field or a body. Use it with `endpoint: resource` (RFC 6749 §10.4: the secret authenticates the client to the authorization server only)."#
            )
        case .clientSecretInQuery:
            CheckDocumentation(
                form: #"`never: { …, carries: client_secret_in_query }`"#,
                passesWhen:
                    #"No matching request has the client's secret in its query string (RFC 6749 §2.3.1: not in the request URI)."#
            )
        case .credentials:
            CheckDocumentation(
                form: #"`never: { origin: other, carries: credentials }`"#,
                passesWhen:
                    #"No matching request carries any credential: an `Authorization` header, any issued token anywhere, or a `client_secret`, `password`, `code`, `code_verifier`, `refresh_token` or `access_token` parameter. For requests that should hold none, such as those a redirect sent to another origin."#
            )
        case .bearerForDPoPToken:
            CheckDocumentation(
                form: #"`never: { endpoint: resource, carries: bearer_for_dpop_token }`"#,
                passesWhen:
                    #"No matching request presents a DPoP-bound access token (RFC 9449 §7.1) with the `Bearer` scheme, or with the `DPoP` scheme but no `DPoP` proof. See [DPoP](flows.md#dpop)."#
            )
        case .replayedDPoPProof:
            CheckDocumentation(
                form: #"`never: { carries: replayed_dpop_proof }`"#,
                passesWhen:
                    #"No matching request carries a DPoP proof whose `jti` a proof of an earlier request had (RFC 9449 §4.2, §11.1)."#
            )
        case .staleDPoPNonce:
            CheckDocumentation(
                form: #"`never: { carries: stale_dpop_nonce }`"#,
                passesWhen:
                    #"No matching request carries a DPoP proof without the latest nonce its server (the token endpoint's, or the resource's) handed out before the request, in a `use_dpop_nonce` error or in the `DPoP-Nonce` of a success (RFC 9449 §8.2, §9)."#
            )
        case .anotherAuthorizationServersCredentials:
            CheckDocumentation(
                form: #"`never: { carries: another_authorization_servers_credentials }`"#,
                passesWhen:
                    #"No request to one authorization server's endpoints (authorization, token, registration and the rest) carries a client ID, client secret or token another authorization server issued: the pre-registered client and the first server's tokens are the first's; a client registered at a registration endpoint, and that server's tokens, are that server's (MCP "Authorization Server Binding"). A Client ID Metadata Document URL is nobody's."#
            )
        }
    }
}
