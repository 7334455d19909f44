import MockProvider

/// The client ID an MCP client obtained at one authorization server (MCP authorization,
/// "Client Registration"), kept by that server's issuer: it is no good at another
/// ("Authorization Server Binding").
struct MCPClientRegistration: Sendable, Equatable {
    let issuer: String
    /// Its id, and its secret where it registered a secret-based method.
    let client: ClientCredentials
    let authentication: ClientAuthenticationMethod
    /// Registered for `client_secret_post` (RFC 7591 §2): its secret goes in the form of each token
    /// request rather than by HTTP Basic.
    var postsSecret = false
}
