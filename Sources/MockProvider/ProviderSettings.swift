/// How the provider behaves when no rule says otherwise, plus the rules that make it misbehave.
public struct ProviderSettings: Sendable, Equatable {
    public var client: ClientCredentials
    public var user: UserCredentials
    public var tokens: TokenPolicy
    public var rules: [ProviderRule]

    public init(
        client: ClientCredentials = .init(id: "conformance-client", secret: "conformance-secret"),
        user: UserCredentials = .init(username: "alice", password: "wonderland"),
        tokens: TokenPolicy = .init(),
        rules: [ProviderRule] = []
    ) {
        self.client = client
        self.user = user
        self.tokens = tokens
        self.rules = rules
    }
}

public struct ClientCredentials: Sendable, Equatable {
    public var id: String
    public var secret: String
    public init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }
}

public struct UserCredentials: Sendable, Equatable {
    public var username: String
    public var password: String
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// Token lifetimes on the virtual clock, and whether a refresh hands out a new refresh token.
public struct TokenPolicy: Sendable, Equatable {
    public var accessLifetime: Duration
    /// `nil`: refresh tokens never expire.
    public var refreshLifetime: Duration?
    /// RFC 6749 §6 / RFC 9700 §4.14: with rotation, every refresh issues a new refresh token
    /// and presenting a superseded one revokes the whole family.
    public var rotateRefreshTokens: Bool

    public init(accessLifetime: Duration = .seconds(3600), refreshLifetime: Duration? = nil, rotateRefreshTokens: Bool = false) {
        self.accessLifetime = accessLifetime
        self.refreshLifetime = refreshLifetime
        self.rotateRefreshTokens = rotateRefreshTokens
    }
}
