/// How the client is registered with the provider (RFC 6749 §2.1), as its profile declares
/// (`client_type:`): a confidential client has a secret (or a key) to authenticate with; a public
/// one, such as a native or command-line application, has none, and proves itself with PKCE.
public enum ClientType: String, Sendable, Hashable, CaseIterable, Codable {
    case confidential
    /// Registered with `token_endpoint_auth_method` `none` (RFC 7591 §2) wherever a scenario does
    /// not register the client otherwise: it is given no secret, and the provider requires PKCE.
    case `public`
}
