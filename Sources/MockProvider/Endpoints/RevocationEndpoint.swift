/// RFC 7009: revokes the token presented. Unknown tokens get 200 too (§2.2), so a client
/// learns nothing from the answer.
struct RevocationEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let ledger: TokenLedger

    func serve(_ request: ProviderRequest) -> ProviderResponse {
        if let refusal = authenticator.refusal(for: request) {
            return refusal
        }
        guard let token = request.formField("token") else {
            return .oauthError(ScriptedOAuthError(code: "invalid_request", description: "token is missing"))
        }
        ledger.revoke(token)
        return ProviderResponse(status: 200, headers: [HeaderField("Cache-Control", "no-store")])
    }
}
