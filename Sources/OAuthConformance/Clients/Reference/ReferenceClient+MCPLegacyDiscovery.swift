import MockProvider

/// Discovery for an MCP server that publishes no Protected Resource Metadata, as MCP authorization
/// 2025-03-26 had a client do it ("Server Metadata Discovery"): the authorization base URL is the
/// server's URL without its path; its RFC 8414 metadata is at that origin's well-known URL; and
/// where there is none, the default endpoints `/authorize`, `/token` and `/register` at the origin
/// ("Fallbacks for Servers without Metadata Discovery"). The reference client supports such
/// servers (the capability `mcp_legacy_discovery`); a client of MCP authorization 2026-07-28 alone
/// may end the sign-in there instead.
extension ReferenceClient {
    /// - Parameter resourceMetadataAnswers: what the Protected Resource Metadata URLs answered, for the error.
    func legacyDiscovery(
        server: String,
        resourceMetadataAnswers: [String]
    ) async -> Result<MCPDiscovery, ClientFailure> {
        let legacy = behaviour.mcp.legacyDiscovery
        guard legacy != .unsupported, let (origin, _) = MCPDiscoveryURLs.split(server) else {
            return .failure(Self.noDocument("Protected Resource Metadata", answers: resourceMetadataAnswers))
        }
        if legacy != .defaultsOnly {
            let metadataURL = origin + "/.well-known/oauth-authorization-server"
            switch await document(at: [metadataURL]) {
            case .failure(let failure): return .failure(failure)
            case .success(.found(let document)):
                if let failure = checkedIssuer(of: document, askedAbout: origin) { return .failure(failure) }
                return .success(MCPDiscovery(issuer: origin, serverMetadata: document))
            case .success(.notFound(let answers)):
                guard legacy != .metadataOnly else {
                    return .failure(
                        Self.noDocument(
                            "Protected Resource Metadata or authorization server metadata",
                            answers: resourceMetadataAnswers + answers
                        )
                    )
                }
            }
        }
        let defaults: [String: JSONValue] = [
            "issuer": .string(origin),
            "authorization_endpoint": .string(origin + "/authorize"),
            "token_endpoint": .string(origin + "/token"),
            "registration_endpoint": .string(origin + "/register"),
        ]
        return .success(MCPDiscovery(issuer: origin, serverMetadata: .object(defaults), usesDefaultEndpoints: true))
    }
}
