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
    /// The scope each MCP method needs, space-separated, by JSON-RPC method name (`tools/call`):
    /// an authorized message whose method needs a scope its token was not granted is answered 403
    /// `insufficient_scope` naming that scope (MCP "Runtime Insufficient Scope Errors", RFC 6750
    /// §3.1). A method not listed needs none beyond a valid token.
    public var methodScopes: [String: String] = [:]
    /// Every message whose method needs a scope is refused `insufficient_scope`, whatever its token
    /// was granted: a server no re-authorization satisfies, for a client's step-up retry limit
    /// (MCP "Step-Up Authorization Flow": retry "no more than a few times").
    public var scopesNeverEnough = false
    /// A second authorization server the MCP server can move to (`authorization_server: second`
    /// steps), and how a client gets a client ID there; `nil`: the provider has none. From the
    /// move on, the Protected Resource Metadata names only the second, and the server takes only
    /// its tokens (MCP "Authorization Server Binding").
    public var secondAuthorizationServer: ClientRegistrationPolicy?

    public init(
        challengeScope: String? = nil,
        scopesSupported: [String]? = nil,
        methodScopes: [String: String] = [:],
        scopesNeverEnough: Bool = false
    ) {
        self.challengeScope = challengeScope
        self.scopesSupported = scopesSupported
        self.methodScopes = methodScopes
        self.scopesNeverEnough = scopesNeverEnough
    }

    /// The scope `method` needs when a token granted `granted` lacks some of it (the 403's
    /// `scope`); `nil` when the message may go ahead.
    public func unmetScope(for method: String, granted: String?) -> String? {
        guard let needed = methodScopes[method] else { return nil }
        if scopesNeverEnough { return needed }
        let held = Set((granted ?? "").split(separator: " "))
        return needed.split(separator: " ").allSatisfy(held.contains) ? nil : needed
    }
}
