import Foundation

/// What the `tokens` sign-in hands a client: a session the provider issued, as an application
/// keeps it in its own storage and gives it back to the library at launch (a `Credentials` object,
/// a deserialized token cache). The client signs nobody in; it carries on from these tokens.
public struct SavedSession: Sendable, Equatable {
    public var accessToken: String
    /// `Bearer`, as the token response said.
    public var tokenType: String
    public var refreshToken: String?
    /// When the access token expires, on the clock the client reads; `nil`: it was not said.
    public var expiresAt: Date?
    /// The scope granted, space-separated; `nil` when the provider stated none.
    public var scope: String?

    public init(accessToken: String, tokenType: String, refreshToken: String?, expiresAt: Date?, scope: String?) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scope = scope
    }
}
