/// The decisions that make the reference client conform, each set to its conforming value.
/// Each defective client in `DefectiveClient.catalogue` changes exactly one of them, as a real
/// library's bug would.
public struct ClientBehaviour: Sendable, Equatable {
    public enum UnauthorizedRecovery: Sendable, Equatable {
        /// On 401 `invalid_token`: one refresh, one replay with the new token.
        case refreshAndReplayOnce
        /// Surface the 401 without refreshing.
        case none
        /// Refresh, then replay the request with the token it already failed with.
        case replayWithStaleToken
    }

    public enum AccessTokenPlacement: Sendable, Equatable {
        /// RFC 6750 §2.1, the only placement RFC 9700 §4.3.2 leaves.
        case authorizationHeader
        /// RFC 6750 §2.3 `?access_token=`: ends up in logs, history and Referer headers.
        case queryParameter
    }

    /// How long before expiry a request triggers a refresh.
    public var refreshLeeway: Duration = .seconds(60)
    public var unauthorizedRecovery = UnauthorizedRecovery.refreshAndReplayOnce
    /// RFC 6749 §6: a refresh response without a refresh token leaves the previous one in force.
    public var keepsRefreshTokenWhenAbsent = true
    /// RFC 6749 §5.1: `expires_in` sets when the access token stops being usable.
    public var readsExpiresIn = true
    /// Concurrent callers needing a refresh wait for one refresh instead of each starting one.
    public var sharesOneRefresh = true
    public var accessTokenPlacement = AccessTokenPlacement.authorizationHeader
    /// RFC 6749 §10.4: the refresh token goes to the authorization server only.
    public var keepsRefreshTokenFromResource = true
    /// RFC 6749 §5.2: an error answer is final for that request; sending it again cannot help.
    public var retriesTokenErrors = false
    /// RFC 6749 §5.2: the `error` code reaches the application, so it can tell errors apart.
    public var reportsErrorCodes = true

    public init() {}

    public static let conforming = ClientBehaviour()
}
