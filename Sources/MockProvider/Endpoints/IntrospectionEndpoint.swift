import Foundation

/// RFC 7662: tells an authenticated caller whether a token is active, with its metadata.
struct IntrospectionEndpoint: Sendable {
    let settings: ProviderSettings
    let authenticator: ClientAuthenticator
    let ledger: TokenLedger
    let clock: VirtualClock

    func serve(_ request: ProviderRequest, at now: Duration) -> ProviderResponse {
        guard settings.clientAuthentication.isConfidential else {
            // RFC 7662 §2.1: the endpoint serves authorized callers only, and a public client
            // cannot authenticate.
            return .oauthError(
                ScriptedOAuthError(
                    code: "invalid_client",
                    description:
                        "the client is registered as a public client (token_endpoint_auth_method none), and introspection takes authenticated callers only (RFC 7662 §2.1)"
                )
            )
        }
        if let refusal = authenticator.refusal(for: request) {
            return refusal
        }
        guard let value = request.formField("token") else {
            return .oauthError(ScriptedOAuthError(code: "invalid_request", description: "token is missing"))
        }
        guard let token = ledger.liveToken(value, at: now) else {
            return .json(200, .object(["active": .bool(false)]))
        }
        var members: [String: JSONValue] = [
            "active": .bool(true),
            "client_id": .string(settings.client.id),
            "sub": .string(token.subject),
            "token_type": .string(token.kind == .refresh ? "refresh_token" : token.tokenType),
            "iat": .integer(unixTime(token.issuedAt)),
        ]
        // RFC 9449 §6.2: a bound token's confirmation is the thumbprint of its key.
        if let key = token.boundKey { members["cnf"] = .object(["jkt": .string(key)]) }
        if let expiresAt = token.expiresAt { members["exp"] = .integer(unixTime(expiresAt)) }
        return .json(200, .object(members))
    }

    private func unixTime(_ instant: Duration) -> Int {
        Int(clock.date(at: instant).timeIntervalSince1970)
    }
}
