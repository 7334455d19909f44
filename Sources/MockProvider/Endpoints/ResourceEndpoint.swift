/// The protected resource: RFC 6750 bearer tokens in the Authorization header only.
struct ResourceEndpoint: Sendable {
    let ledger: TokenLedger

    func serve(_ request: ProviderRequest, at now: Duration) -> ProviderResponse {
        guard let presented = request.bearerToken else {
            // RFC 6750 §3.1: a request without authentication gets a challenge with no error code.
            return ProviderResponse(
                status: 401,
                headers: [HeaderField("WWW-Authenticate", "Bearer realm=\"mock-provider\"")]
            )
        }
        guard let token = ledger.validAccessToken(presented, at: now) else {
            return ProviderResponse(
                status: 401,
                headers: [HeaderField("WWW-Authenticate", "Bearer realm=\"mock-provider\", error=\"invalid_token\"")]
            )
        }
        return .json(200, sortedMembers: [("path", .string(request.path)), ("subject", .string(token.subject))])
    }
}
