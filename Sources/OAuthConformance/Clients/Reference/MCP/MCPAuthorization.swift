/// What an MCP client learned by discovery and keeps for the session it signs in: the
/// authorization server it signed in at and the server its tokens are for.
struct MCPAuthorization: Sendable, Equatable {
    /// The authorization server's issuer, which the authorization response's `iss` must be, and
    /// whether its metadata promised to send it.
    let expectedIssuer: ExpectedIssuer
    /// The metadata's `token_endpoint`, where the code and every refresh go.
    let tokenEndpoint: String
    /// The MCP server's canonical URI, the `resource` of every request for its tokens (RFC 8707).
    let resource: String
}
