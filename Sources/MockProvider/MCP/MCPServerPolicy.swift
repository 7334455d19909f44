/// The provider as an MCP server and its authorization server (Model Context Protocol,
/// authorization 2026-07-28): what its 401 challenge and its Protected Resource Metadata (RFC 9728)
/// say beyond what they always say. Everything else an MCP client may meet misbehaving (a PRM
/// served at one well-known URL only, a document naming another resource or issuer, a challenge
/// without `resource_metadata`) is a rule's, per request.
public struct MCPServerPolicy: Sendable, Equatable {
    /// Which Protected Resource Metadata URL the 401 challenge names in `resource_metadata`
    /// (RFC 9728 §5.1); `nil`: none, so a client must look at the well-known URLs itself.
    public var challengeNames: Endpoint? = .protectedResourceMetadata
    /// The `scope` of the 401 challenge (RFC 6750 §3), the scopes the server needs for the request
    /// (MCP "Scope selection strategy"); `nil`: no `scope`.
    public var challengeScope: String?
    /// The Protected Resource Metadata's `scopes_supported` (RFC 9728 §2); `nil`: omitted.
    public var scopesSupported: [String]?

    public init(challengeScope: String? = nil, scopesSupported: [String]? = nil) {
        self.challengeScope = challengeScope
        self.scopesSupported = scopesSupported
    }
}
