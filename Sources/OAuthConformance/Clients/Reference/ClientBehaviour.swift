/// The decisions that make the reference client conform. Each defective client in
/// `DefectiveClient.catalogue` changes exactly one of them, as a real library's bug would.
public struct ClientBehaviour: Sendable, Equatable {
    public enum UnauthorizedRecovery: Sendable, Equatable {
        /// On 401 `invalid_token`: one refresh, one replay with the new token.
        case refreshAndReplayOnce
        /// Surface the 401 without refreshing.
        case none
        /// Refresh, then replay the request with the token it already failed with.
        case replayWithStaleToken
    }

    /// How long before expiry a request triggers a refresh.
    public var refreshLeeway: Duration
    public var unauthorizedRecovery: UnauthorizedRecovery
    /// RFC 6749 §6: a refresh response without a refresh token leaves the previous one in force.
    public var keepsRefreshTokenWhenAbsent: Bool
    /// RFC 6749 §5.1: `expires_in` sets when the access token stops being usable.
    public var readsExpiresIn: Bool

    public init(refreshLeeway: Duration, unauthorizedRecovery: UnauthorizedRecovery, keepsRefreshTokenWhenAbsent: Bool, readsExpiresIn: Bool) {
        self.refreshLeeway = refreshLeeway
        self.unauthorizedRecovery = unauthorizedRecovery
        self.keepsRefreshTokenWhenAbsent = keepsRefreshTokenWhenAbsent
        self.readsExpiresIn = readsExpiresIn
    }

    public static let conforming = ClientBehaviour(
        refreshLeeway: .seconds(60),
        unauthorizedRecovery: .refreshAndReplayOnce,
        keepsRefreshTokenWhenAbsent: true,
        readsExpiresIn: true
    )
}
