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
    /// RFC 9126 §2: pushed authorization requests.
    case pushedAuthorization = "par"
    /// RFC 8628 §3.1: the device authorization endpoint.
    case deviceAuthorization = "device_authorization"
    /// The app server's token endpoint, on the other origin: it trades an ID token from this
    /// provider for the app's own tokens (RFC 8693 token exchange, RFC 7523 §2.1 JWT bearer grant)
    /// and refreshes them.
    case appToken = "app_token"
    /// The app server's own protected resource, on the other origin; it takes the app's tokens only.
    case appResource = "app_resource"
    /// An MCP server (Model Context Protocol authorization, 2026-07-28): a protected resource whose
    /// 401 names its Protected Resource Metadata (RFC 9728 §5.1). Its canonical URI is `<origin>/mcp`.
    case mcp
    /// RFC 9728 §3.1: the MCP server's Protected Resource Metadata at the path-based well-known URL
    /// (`/.well-known/oauth-protected-resource` inserted before the server's path).
    case protectedResourceMetadata = "prm"
    /// The same document at the root well-known URL, where an MCP client looks next.
    case protectedResourceMetadataRoot = "prm_root"
    /// The same document at a path of the server's own choosing, which a client learns only from
    /// the `resource_metadata` of the 401 (RFC 9728 §5.1 names a URL, not a well-known one).
    case protectedResourceMetadataNamed = "prm_named"

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
        case .pushedAuthorization: "/par"
        case .deviceAuthorization: "/device_authorization"
        case .appToken: "/app/token"
        case .appResource: "/app/resource"
        case .mcp: "/mcp"
        case .protectedResourceMetadata: "/.well-known/oauth-protected-resource/mcp"
        case .protectedResourceMetadataRoot: "/.well-known/oauth-protected-resource"
        case .protectedResourceMetadataNamed: "/mcp-server/resource-metadata.json"
        }
    }

    /// Whether its requests carry a `grant_type` that rules and filters can select by: the token
    /// endpoints'; a request to any other endpoint has no grant.
    public var takesGrants: Bool { self == .token || self == .appToken }

    /// Whether the app server answers it (on the other origin) rather than the provider.
    public var isAppServer: Bool { self == .appToken || self == .appResource }

    /// The resource endpoints serve their whole subtree, so scenarios can request `/resource/items/1`.
    /// The metadata endpoints take every URL a client may build for an issuer with a path (RFC 8414
    /// §3.1's insertion, OpenID Connect Discovery's appending); the provider answers the ones of its
    /// own issuer and 404s the rest.
    public init?(path: String) {
        if path == Endpoint.resource.path || path.hasPrefix(Endpoint.resource.path + "/") {
            self = .resource
        } else if path == Endpoint.appResource.path || path.hasPrefix(Endpoint.appResource.path + "/") {
            self = .appResource
        } else if let exact = Endpoint.allCases.first(where: { $0.path == path }) {
            self = exact
        } else if path.hasPrefix(Endpoint.metadata.path + "/") {
            self = .metadata
        } else if path.hasPrefix(Endpoint.openIDConfiguration.path + "/")
            || path.hasSuffix(Endpoint.openIDConfiguration.path)
        {
            self = .openIDConfiguration
        } else {
            return nil
        }
    }

    /// The app server lives on the other origin only; the provider's endpoints answer on both (the
    /// other origin is where cross-origin redirects lead).
    init?(path: String, listener: Listener) {
        guard let endpoint = Endpoint(path: path), !endpoint.isAppServer || listener == .otherOrigin else {
            return nil
        }
        self = endpoint
    }
}

/// OAuth 2.0 grant types, by their `grant_type` wire value.
public enum GrantType: String, Sendable, Hashable, CaseIterable {
    case authorizationCode = "authorization_code"
    case password
    case clientCredentials = "client_credentials"
    case refreshToken = "refresh_token"
    /// RFC 8628 §3.4: polling for the tokens of a device authorization.
    case deviceCode = "urn:ietf:params:oauth:grant-type:device_code"
    /// RFC 8693 §2.1, at the app server only.
    case tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
    /// RFC 7523 §2.1, at the app server only.
    case jwtBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// The grants a scenario's `login` step names.
    public static let loginGrants: [GrantType] = [.authorizationCode, .password, .clientCredentials, .refreshToken]
    /// The grants a client obtains tokens with at the provider's token endpoint.
    public static let providerGrants: [GrantType] = loginGrants + [.deviceCode]

    /// The scenario language's name: the wire value, or for a URN its last word with underscores
    /// (`token_exchange`, `jwt_bearer`).
    public var scenarioName: String {
        switch self {
        case .tokenExchange: "token_exchange"
        case .jwtBearer: "jwt_bearer"
        case .deviceCode: "device_code"
        default: rawValue
        }
    }
}

/// RFC 8693 §3 token type identifiers.
public enum TokenTypeURI {
    public static let idToken = "urn:ietf:params:oauth:token-type:id_token"
    public static let accessToken = "urn:ietf:params:oauth:token-type:access_token"
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
