/// An MCP server's endpoint as its authorization sees it (MCP authorization 2026-07-28, "Protected
/// Resource Metadata Discovery Requirements"): a protected resource that takes the provider's bearer
/// tokens in the Authorization header, and whose 401 names its Protected Resource Metadata in
/// `WWW-Authenticate: Bearer resource_metadata="…"` (RFC 9728 §5.1), with the scope it needs. Once
/// authorized, a JSON-RPC message POSTed to it gets an MCP server's answer (`MCPMessageAnswer`).
struct MCPEndpoint: Sendable {
    let policy: MCPServerPolicy

    /// - Parameters:
    ///   - origin: the provider's primary origin, where the server and its metadata live.
    ///   - ledger: the tokens of the authorization server the server takes tokens from now.
    func serve(_ request: ProviderRequest, origin: String, ledger: TokenLedger, at now: Duration) -> ProviderResponse {
        guard let presented = request.bearerToken else {
            return challenge(origin: origin, error: nil)
        }
        guard let token = ledger.validAccessToken(presented, at: now) else {
            return challenge(origin: origin, error: "invalid_token")
        }
        if request.method == "POST", let message = MCPMessageAnswer.Message(body: request.body) {
            if let needed = policy.unmetScope(for: message.method, granted: token.scope) {
                return insufficientScope(needed, origin: origin)
            }
            return MCPMessageAnswer.answer(message)
        }
        if request.method == "GET", request.header("Accept")?.contains("text/event-stream") == true {
            // A client's stream for the server's own messages: this server sends none (Streamable HTTP
            // lets a server refuse the stream with 405).
            return ProviderResponse(status: 405, headers: [HeaderField("Allow", "POST")])
        }
        return .json(200, sortedMembers: [("path", .string(request.path)), ("subject", .string(token.subject))])
    }

    /// The server's canonical URI (MCP "Canonical Server URI"), which `resource` names.
    static func canonicalURI(origin: String) -> String { origin + Endpoint.mcp.path }

    /// RFC 6750 §3.1, MCP "Runtime Insufficient Scope Errors": 403 with the scope the message
    /// needs (only the method's: a client must add what it was granted itself) and the metadata
    /// URL, so the client can step up.
    private func insufficientScope(_ needed: String, origin: String) -> ProviderResponse {
        var parameters = ["error=\"insufficient_scope\"", "scope=\"\(needed)\""]
        parameters += metadataParameter(origin: origin)
        parameters.append("error_description=\"the token lacks the scope this method needs\"")
        return ProviderResponse(
            status: 403,
            headers: [HeaderField("WWW-Authenticate", "Bearer " + parameters.joined(separator: ", "))]
        )
    }

    /// `resource_metadata="…"` (RFC 9728 §5.1), the URL the policy has the server name, if any.
    private func metadataParameter(origin: String) -> [String] {
        policy.challengeNames.map { ["resource_metadata=\"\(origin + $0.path)\""] } ?? []
    }

    private func challenge(origin: String, error: String?) -> ProviderResponse {
        var parameters = metadataParameter(origin: origin)
        if let scope = policy.challengeScope { parameters.append("scope=\"\(scope)\"") }
        if let error { parameters.append("error=\"\(error)\"") }
        return ProviderResponse(
            status: 401,
            headers: [
                HeaderField(
                    "WWW-Authenticate",
                    parameters.isEmpty ? "Bearer" : "Bearer " + parameters.joined(separator: ", ")
                )
            ]
        )
    }
}
