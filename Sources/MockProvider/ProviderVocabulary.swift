/// The endpoints the provider serves. A request to any other path is journaled as `nil`.
public enum Endpoint: String, Sendable, Hashable, CaseIterable {
    case token
    case resource
    case authorize
    /// RFC 7009 token revocation.
    case revoke
    /// RFC 7662 token introspection.
    case introspect
    /// RFC 8414 authorization server metadata.
    case metadata
    /// OpenID Connect Discovery 1.0 §4: the OpenID Provider configuration.
    case openIDConfiguration = "openid_configuration"
    /// The JWK Set of the keys that sign ID tokens (RFC 7517 §5, OpenID Connect Core §10.1.1).
    case jwks
    /// OpenID Connect Core §5.3.
    case userinfo

    public var path: String {
        switch self {
        case .token: "/token"
        case .resource: "/resource"
        case .authorize: "/authorize"
        case .revoke: "/revoke"
        case .introspect: "/introspect"
        case .metadata: "/.well-known/oauth-authorization-server"
        case .openIDConfiguration: "/.well-known/openid-configuration"
        case .jwks: "/jwks"
        case .userinfo: "/userinfo"
        }
    }

    /// The resource endpoint serves its whole subtree, so scenarios can request `/resource/items/1`.
    init?(path: String) {
        if path == Endpoint.resource.path || path.hasPrefix(Endpoint.resource.path + "/") {
            self = .resource
        } else if let exact = Endpoint.allCases.first(where: { $0.path == path }) {
            self = exact
        } else {
            return nil
        }
    }
}

/// OAuth 2.0 grant types, by their `grant_type` wire value.
public enum GrantType: String, Sendable, Hashable, CaseIterable {
    case authorizationCode = "authorization_code"
    case password
    case clientCredentials = "client_credentials"
    case refreshToken = "refresh_token"
}

/// The error codes of RFC 6749 §5.2.
public enum OAuthErrorCode: String, Sendable, Hashable, CaseIterable {
    case invalidRequest = "invalid_request"
    case invalidClient = "invalid_client"
    case invalidGrant = "invalid_grant"
    case unauthorizedClient = "unauthorized_client"
    case unsupportedGrantType = "unsupported_grant_type"
    case invalidScope = "invalid_scope"

    /// The status RFC 6749 §5.2 gives: 401 for a failed client authentication, 400 for the rest.
    public var defaultStatus: Int { self == .invalidClient ? 401 : 400 }
}

/// RFC 7636 code challenge methods.
public enum CodeChallengeMethod: String, Sendable, Hashable, CaseIterable {
    case s256 = "S256"
    case plain
}
