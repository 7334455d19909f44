import Foundation

/// The tokens a client holds, as it reports them.
public struct StoredTokens: Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String?
    /// When the client believes the access token expires; `nil` for "never" or "unknown".
    public var expiresAt: Date?

    public init(accessToken: String, refreshToken: String?, expiresAt: Date?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }
}
