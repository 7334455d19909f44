/// A client the provider registered during the scenario: by Dynamic Client Registration (RFC 7591
/// §3.2.1), or one that identified itself by a Client ID Metadata Document URL (MCP).
struct RegisteredClient: Sendable, Equatable {
    let id: String
    /// `nil` for a public client (`token_endpoint_auth_method` `none`), which sends its id alone.
    let secret: String?
    /// Its `token_endpoint_auth_method` (RFC 7591 §2): how it authenticates wherever clients do,
    /// and the only way it is let in (`ClientAuthenticator`).
    let authMethod: String
    /// The redirect URIs it registered; `nil`: the provider's own list (`ProviderSettings.redirectURIs`),
    /// which stands for what a metadata document the provider does not fetch would list.
    let redirectURIs: [String]?
}
