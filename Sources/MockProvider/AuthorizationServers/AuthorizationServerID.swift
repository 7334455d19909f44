/// Which of the provider's authorization servers a request is for. The first is the provider's
/// own: its issuer is the origin (with `ProviderSettings.issuerPath`), its endpoints at the
/// origin's root. The second exists where a scenario gives the MCP server one to move to
/// (`provider.mcp.second_authorization_server`): its issuer is `<origin>/as2`, its endpoints
/// under that path, its RFC 8414 metadata at the URL §3.1 builds from that issuer (it is no
/// OpenID provider).
public enum AuthorizationServerID: String, Sendable, Hashable, CaseIterable {
    case first
    case second

    /// The path of the second authorization server's issuer, and of its endpoints.
    public static let secondPath = "/as2"

    /// The authorization server a request to `path` is for, and the path of the endpoint it
    /// names as that server serves it: `/as2/token` is the second's `/token`, and
    /// `/.well-known/oauth-authorization-server/as2` (RFC 8414 §3.1 inserts the well-known part
    /// before the issuer's path) its metadata. Any other path is the first's, as it is.
    public static func route(_ path: String) -> (server: AuthorizationServerID, endpointPath: String) {
        if path.hasPrefix(secondPath + "/") { return (.second, String(path.dropFirst(secondPath.count))) }
        if path == Endpoint.metadata.path + secondPath { return (.second, Endpoint.metadata.path) }
        return (.first, path)
    }
}
