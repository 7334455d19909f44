/// RFC 9728 §3.2: the MCP server's Protected Resource Metadata, the same document at the path-based
/// and the root well-known URL: the server's canonical URI as `resource`, and its one
/// authorization server (§2 `authorization_servers`, the issuer identifier): the provider's own,
/// or the second once the server has moved to it.
enum ProtectedResourceMetadataEndpoint {
    static func serve(origin: String, issuer: String, policy: MCPServerPolicy) -> ProviderResponse {
        var members: [String: JSONValue] = [
            "resource": .string(MCPEndpoint.canonicalURI(origin: origin)),
            "authorization_servers": .array([.string(issuer)]),
            "bearer_methods_supported": .array([.string("header")]),
        ]
        if let scopes = policy.scopesSupported { members["scopes_supported"] = .array(scopes.map(JSONValue.string)) }
        return .json(200, .object(members))
    }
}
