import Foundation

/// The URLs an MCP client tries, in the order MCP authorization (2026-07-28) gives, or the order a
/// defect of `MCPBehaviour` puts them in.
enum MCPDiscoveryURLs {
    /// "Protected Resource Metadata Discovery Requirements": the challenge's `resource_metadata`
    /// when there is one, then RFC 9728 §3.1's well-known URL with the server's path, then the
    /// root well-known URL.
    static func protectedResourceMetadata(
        server: String,
        challenged: String?,
        order: MCPBehaviour.MetadataOrder
    ) -> [String] {
        guard let (origin, path) = split(server) else { return challenged.map { [$0] } ?? [] }
        let root = origin + "/.well-known/oauth-protected-resource"
        let pathBased = path.isEmpty || path == "/" ? root : root + path
        let wellKnown: [String] =
            switch order {
            case .challengeThenPathThenRoot, .ignoresChallenge: [pathBased, root]
            case .rootBeforePath: [root, pathBased]
            case .noRootFallback: [pathBased]
            }
        let fromChallenge = order == .ignoresChallenge ? nil : challenged
        return unique((fromChallenge.map { [$0] } ?? []) + wellKnown)
    }

    /// "Authorization Server Metadata Discovery": for an issuer with a path, RFC 8414 §3.1 path
    /// insertion, OpenID Connect Discovery path insertion, then path appending; for one without,
    /// RFC 8414 then OpenID Connect Discovery.
    static func authorizationServerMetadata(issuer: String, order: MCPBehaviour.ServerMetadataOrder) -> [String] {
        guard let (origin, issuerPath) = split(issuer) else { return [] }
        let path = order == .ignoresIssuerPath || issuerPath == "/" ? "" : issuerPath
        let oauth = origin + "/.well-known/oauth-authorization-server" + path
        let openID =
            path.isEmpty
            ? [origin + "/.well-known/openid-configuration"]
            : [
                origin + "/.well-known/openid-configuration" + path,
                origin + path + "/.well-known/openid-configuration",
            ]
        return order == .openIDFirst ? openID + [oauth] : [oauth] + openID
    }

    /// `https://host:port` and `/path` of a URL, without its query and fragment.
    static func split(_ url: String) -> (origin: String, path: String)? {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
            let host = components.host
        else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        return ("\(scheme)://\(host)\(port)", components.path)
    }

    private static func unique(_ urls: [String]) -> [String] {
        var seen: Set<String> = []
        return urls.filter { seen.insert($0).inserted }
    }
}
