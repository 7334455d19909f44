/// The protected resource: RFC 6750 bearer tokens in the Authorization header only, and with
/// DPoP offered, RFC 9449 §7's DPoP-bound tokens with their proofs.
struct ResourceEndpoint: Sendable {
    let ledger: TokenLedger
    var dpop: DPoPGate? = nil

    func serve(_ request: ProviderRequest, at now: Duration) -> ProviderResponse {
        let dpopToken = dpop == nil ? nil : DPoPGate.dpopToken(of: request)
        guard let presented = dpopToken ?? request.bearerToken else {
            // RFC 6750 §3.1: a request without authentication gets a challenge with no error code.
            return ProviderResponse(
                status: 401,
                headers: [HeaderField("WWW-Authenticate", "Bearer realm=\"mock-provider\"")]
            )
        }
        guard let token = ledger.validAccessToken(presented, at: now) else {
            return ProviderResponse(
                status: 401,
                headers: [
                    HeaderField(
                        "WWW-Authenticate",
                        (dpopToken == nil ? "Bearer" : "DPoP") + " realm=\"mock-provider\", error=\"invalid_token\""
                    )
                ]
            )
        }
        if let dpop {
            if let refusal = dpop.checkResourceRequest(request, token: token, withDPoPScheme: dpopToken != nil) {
                return refusal
            }
            var response = Self.success(request, token)
            if token.boundKey != nil { dpop.noteAccepted(.resource, in: &response) }
            return response
        }
        return Self.success(request, token)
    }

    private static func success(_ request: ProviderRequest, _ token: IssuedToken) -> ProviderResponse {
        .json(200, sortedMembers: [("path", .string(request.path)), ("subject", .string(token.subject))])
    }
}
