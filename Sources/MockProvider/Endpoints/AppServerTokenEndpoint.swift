/// The token endpoint of the app's own server (catalogue section D): the app signed its user in
/// with the provider (leg 1) and trades the ID token here for the app's own tokens (leg 2), by
/// RFC 8693 token exchange or the RFC 7523 §2.1 JWT bearer grant, then refreshes them here
/// (RFC 6749 §6). It accepts an ID token only as a server that verifies the provider's tokens
/// would: one the provider issued unaltered, for this client, and not yet expired.
struct AppServerTokenEndpoint: Sendable {
    let ledger: TokenLedger
    let idTokens: IDTokenLedger
    let clientID: String

    func serve(_ request: ProviderRequest, at now: Duration) -> ProviderResponse {
        func refusal(_ code: String, _ description: String) -> ProviderResponse {
            .oauthError(ScriptedOAuthError(code: code, description: description))
        }
        guard let grantValue = request.formField("grant_type") else {
            return refusal("invalid_request", "grant_type is missing")
        }
        switch GrantType(rawValue: grantValue) {
        case .tokenExchange:
            // RFC 8693 §2.1: the subject token and its type are both required.
            guard let subjectToken = request.formField("subject_token") else {
                return refusal("invalid_request", "subject_token is missing")
            }
            guard request.formField("subject_token_type") == TokenTypeURI.idToken else {
                return refusal(
                    "invalid_request",
                    "subject_token_type must be \(TokenTypeURI.idToken): this server takes the provider's ID token"
                )
            }
            return exchange(subjectToken, at: now, issuedTokenType: TokenTypeURI.accessToken)
        case .jwtBearer:
            guard let assertion = request.formField("assertion") else {
                return refusal("invalid_request", "assertion is missing")
            }
            return exchange(assertion, at: now, issuedTokenType: nil)
        case .refreshToken:
            guard let presented = request.formField("refresh_token") else {
                return refusal("invalid_request", "refresh_token is missing")
            }
            guard let refreshed = ledger.refresh(with: presented, at: now) else {
                return refusal("invalid_grant", "the refresh token is not one of this server's, or expired or revoked")
            }
            return TokenEndpoint.success(refreshed, idToken: nil)
        default:
            return refusal(
                "unsupported_grant_type",
                "this server takes token_exchange, jwt_bearer and refresh_token, not \(grantValue)"
            )
        }
    }

    /// RFC 8693 §2.2.2 and RFC 7523 §3.1: a subject token or assertion that is not valid is `invalid_grant`.
    private func exchange(_ idToken: String, at now: Duration, issuedTokenType: String?) -> ProviderResponse {
        guard let issued = idTokens.issued(value: idToken) else {
            return .oauthError(
                ScriptedOAuthError(code: "invalid_grant", description: "not an ID token the provider issued")
            )
        }
        guard let validUntil = issued.validUntil else {
            return .oauthError(
                ScriptedOAuthError(code: "invalid_grant", description: "the ID token fails verification")
            )
        }
        guard now < validUntil else {
            return .oauthError(ScriptedOAuthError(code: "invalid_grant", description: "the ID token has expired"))
        }
        guard case .string(let subject)? = issued.claims["sub"], issued.claims["aud"] == .string(clientID) else {
            return .oauthError(
                ScriptedOAuthError(code: "invalid_grant", description: "the ID token is not for this client")
            )
        }
        let granted = ledger.grant(subject: subject, withRefreshToken: true, at: now)
        return TokenEndpoint.success(granted, idToken: nil, issuedTokenType: issuedTokenType)
    }
}
