import Foundation

/// The tokens a client holds, with expiry as the client computed it on receipt.
struct TokenSet: Sendable, Equatable, Codable {
    var accessToken: String
    /// `nil`: the provider gave no lifetime, so the token is used until a 401 says otherwise.
    var expiresAt: Date?
    var refreshToken: String?
    /// When the client received the tokens; with `expiresAt`, the stated lifetime.
    var receivedAt: Date? = nil
    /// The response's ID token (OIDC Core §3.1.3.3), as received; validated before the set is kept.
    var idToken: String? = nil
    /// RFC 9449: `token_type` DPoP; the access token goes with a proof by the client's key.
    var dpopBound = false

    func needsRefresh(at now: Date, leeway: Duration) -> Bool {
        expiresAt.map { now >= $0.addingTimeInterval(-leeway.seconds) } ?? false
    }

    /// The stated lifetime, when the provider gave one.
    var lifetime: TimeInterval? {
        guard let expiresAt, let receivedAt else { return nil }
        return expiresAt.timeIntervalSince(receivedAt)
    }

    func isExpired(at now: Date) -> Bool {
        expiresAt.map { now >= $0 } ?? false
    }
}
