/// What an MCP client learned by discovery and keeps for the session it signs in: the
/// authorization server it signed in at and the server its tokens are for.
struct MCPAuthorization: Sendable, Equatable {
    /// The authorization server's issuer, which the authorization response's `iss` must be, and
    /// whether its metadata promised to send it.
    let expectedIssuer: ExpectedIssuer
    /// The metadata's `authorization_endpoint`, where a step-up sends the user again.
    let authorizationEndpoint: String
    /// The metadata's `token_endpoint`, where the code and every refresh go.
    let tokenEndpoint: String
    /// The MCP server's canonical URI, the `resource` of every request for its tokens (RFC 8707).
    let resource: String
    /// The scope of the session's latest authorization request, which its tokens were granted
    /// (RFC 6749 §5.1: a token response without `scope` grants what was asked); `nil`: none asked.
    var scope: String?
}
