import MockProvider

/// What an MCP client's discovery found before it signs in: the authorization server, the
/// documents that named it, and whether its endpoints are the legacy defaults of a server that
/// publishes no metadata at all.
struct MCPDiscovery: Sendable {
    let issuer: String
    /// The server's Protected Resource Metadata; empty for a server of MCP authorization 2025-03-26.
    var resourceMetadata: JSONValue = .object([:])
    let serverMetadata: JSONValue
    /// MCP authorization 2025-03-26, "Fallbacks for Servers without Metadata Discovery": the
    /// metadata is the default endpoints at the server's origin, not a document the server served.
    var usesDefaultEndpoints = false
}

/// What asking a list of URLs for a discovery document came to.
enum MCPDocumentSearch: Sendable {
    /// The first that answered 200 with a JSON object.
    case found(JSONValue)
    /// None did: each URL with the status it answered (`<url> (404)`), for the error.
    case notFound(answers: [String])
}
