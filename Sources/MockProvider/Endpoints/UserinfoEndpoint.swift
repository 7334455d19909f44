/// OpenID Connect Core §5.3: the signed-in user's claims for a live access token, presented as a
/// bearer token in the `Authorization` header (RFC 6750 §2.1) or in a form-encoded POST body
/// (§2.2), never both (§2: one method per request); with DPoP offered, a DPoP-bound token only
/// with its key's proof, as at the resource (RFC 9449 §7.1).
struct UserinfoEndpoint: Sendable {
    let ledger: TokenLedger
    var dpop: DPoPGate? = nil

    func serve(_ request: ProviderRequest, at now: Duration) -> ProviderResponse {
        let dpopToken = dpop == nil ? nil : DPoPGate.dpopToken(of: request)
        let fromHeader = dpopToken ?? request.bearerToken
        // RFC 6750 §2.2: the body method is for POST with a form-encoded body (formField checks that).
        let fromBody = request.method == "POST" ? request.formField("access_token") : nil
        if fromHeader != nil, fromBody != nil {
            return Self.challenge(status: 400, error: "invalid_request")
        }
        guard let presented = fromHeader ?? fromBody else {
            // RFC 6750 §3.1: no authentication, no error code.
            return Self.challenge(status: 401, error: nil)
        }
        guard let token = ledger.validAccessToken(presented, at: now) else {
            return Self.challenge(status: 401, error: "invalid_token")
        }
        if let refusal = dpop?.checkResourceRequest(request, token: token, withDPoPScheme: dpopToken != nil) {
            return refusal
        }
        var response = ProviderResponse.json(
            200,
            .object([
                "sub": .string(token.subject),
                "name": .string(token.subject.prefix(1).uppercased() + token.subject.dropFirst()),
                "email": .string("\(token.subject)@example.com"),
                "email_verified": .bool(true),
            ])
        )
        if let dpop, token.boundKey != nil { dpop.noteAccepted(.resource, in: &response) }
        return response
    }

    private static func challenge(status: Int, error: String?) -> ProviderResponse {
        let value = error.map { "Bearer realm=\"mock-provider\", error=\"\($0)\"" } ?? "Bearer realm=\"mock-provider\""
        return ProviderResponse(status: status, headers: [HeaderField("WWW-Authenticate", value)])
    }
}
