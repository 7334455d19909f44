/// The endpoints the provider serves. A request to any other path is journaled as `nil`.
public enum Endpoint: String, Sendable, Hashable, CaseIterable {
    case token
    case resource

    public var path: String {
        switch self {
        case .token: "/token"
        case .resource: "/resource"
        }
    }

    /// The resource endpoint serves its whole subtree, so scenarios can request `/resource/items/1`.
    init?(path: String) {
        if path == Endpoint.token.path {
            self = .token
        } else if path == Endpoint.resource.path || path.hasPrefix(Endpoint.resource.path + "/") {
            self = .resource
        } else {
            return nil
        }
    }
}

/// OAuth 2.0 grant types, by their `grant_type` wire value.
public enum GrantType: String, Sendable, Hashable, CaseIterable {
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
