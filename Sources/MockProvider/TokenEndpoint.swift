import Foundation

/// The authorization server's token endpoint as RFC 6749 §3.2, §4.3, §4.4, §5 and §6 describe it.
struct TokenEndpoint: Sendable {
    let settings: ProviderSettings
    let ledger: TokenLedger

    static let basicChallenge = HeaderField("WWW-Authenticate", "Basic realm=\"mock-provider\"")

    func serve(_ request: ProviderRequest, at now: Duration) -> ProviderResponse {
        guard request.method == "POST" else {
            return .oauthError(
                ScriptedOAuthError(code: "invalid_request", description: "the token endpoint accepts POST only", status: 405),
                extraHeaders: [HeaderField("Allow", "POST")]
            )
        }
        if let failure = authenticateClient(request) { return failure }
        guard let grantValue = request.formField("grant_type") else {
            return .oauthError(ScriptedOAuthError(code: "invalid_request", description: "grant_type is missing"))
        }
        guard let grant = GrantType(rawValue: grantValue) else {
            return .oauthError(ScriptedOAuthError(code: "unsupported_grant_type", description: "unsupported grant_type \(grantValue)"))
        }
        switch grant {
        case .password:
            guard request.formField("username") == settings.user.username,
                  request.formField("password") == settings.user.password
            else {
                return .oauthError(ScriptedOAuthError(code: "invalid_grant", description: "wrong username or password"))
            }
            return success(ledger.grant(subject: settings.user.username, withRefreshToken: true, at: now))
        case .clientCredentials:
            // RFC 6749 §4.4.3: no refresh token for the client credentials grant.
            return success(ledger.grant(subject: settings.client.id, withRefreshToken: false, at: now))
        case .refreshToken:
            guard let presented = request.formField("refresh_token") else {
                return .oauthError(ScriptedOAuthError(code: "invalid_request", description: "refresh_token is missing"))
            }
            guard let refreshed = ledger.refresh(with: presented, at: now) else {
                return .oauthError(ScriptedOAuthError(code: "invalid_grant", description: "the refresh token is invalid, expired or revoked"))
            }
            return success(refreshed)
        }
    }

    /// RFC 6749 §2.3.1: HTTP Basic (each part form-encoded) or client_id/client_secret in the body,
    /// never both. Returns the error response, or `nil` when the client is authenticated.
    private func authenticateClient(_ request: ProviderRequest) -> ProviderResponse? {
        let basic = request.header("Authorization").flatMap(Self.basicCredentials)
        let bodyID = request.formField("client_id")
        let bodySecret = request.formField("client_secret")
        if basic != nil, bodySecret != nil {
            return .oauthError(ScriptedOAuthError(code: "invalid_request", description: "more than one client authentication method"))
        }
        let presented = basic ?? bodyID.map { ClientCredentials(id: $0, secret: bodySecret ?? "") }
        guard presented == settings.client else {
            let usedBasic = request.header("Authorization") != nil
            return .oauthError(
                ScriptedOAuthError(code: "invalid_client", description: "client authentication failed"),
                extraHeaders: usedBasic ? [Self.basicChallenge] : []
            )
        }
        return nil
    }

    static func basicCredentials(_ authorization: String) -> ClientCredentials? {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let decoded = String(data: data, encoding: .utf8),
              let colon = decoded.firstIndex(of: ":")
        else { return nil }
        return ClientCredentials(
            id: FormField.formDecode(String(decoded[..<colon])),
            secret: FormField.formDecode(String(decoded[decoded.index(after: colon)...]))
        )
    }

    private func success(_ grant: TokenLedger.Grant) -> ProviderResponse {
        var members: [String: JSONValue] = [
            "access_token": .string(grant.access.value),
            "token_type": .string("Bearer"),
        ]
        if let expiresAt = grant.access.expiresAt {
            members["expires_in"] = .integer(Int((expiresAt - grant.access.issuedAt).seconds.rounded()))
        }
        if let refresh = grant.refresh { members["refresh_token"] = .string(refresh.value) }
        return .json(200, .object(members))
    }
}
