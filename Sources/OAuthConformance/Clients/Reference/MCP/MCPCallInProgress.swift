/// An MCP call waiting for the user (MCP "Step-Up Authorization Flow"): the client answered it
/// with an authorization URL, and the `completeAuthorization` that follows redeems the code and
/// sends the call again.
struct MCPCallInProgress: Sendable, Equatable {
    /// The JSON-RPC method, `tools/call`.
    let method: String
    /// The MCP server.
    let url: String
    /// The scope the step-up asked for: the session's once the code is redeemed.
    var stepUpScope: String?

    /// What the client's step-up attempts are counted by: the spec's "resource and operation".
    var attemptKey: String { url + " " + method }
}
