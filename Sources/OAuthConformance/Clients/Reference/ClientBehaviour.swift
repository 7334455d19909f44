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

    public enum PKCEUse: Sendable, Equatable {
        /// RFC 7636 S256, the method RFC 9700 §2.1.1 asks for.
        case s256
        /// RFC 7636 `plain`: the challenge is the verifier, readable by whoever sees the URL.
        case plain
        /// No PKCE: an intercepted code can be redeemed by anyone.
        case none
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
    public var pkce = PKCEUse.s256
    /// RFC 6749 §10.12: the redirect's `state` must be the one sent, or it is refused.
    public var checksState = true
    /// RFC 6749 §10.10: `state` carries at least 128 bits of entropy, fresh per request.
    public var unguessableState = true
    /// RFC 9207 §2.4: the redirect's `iss` must be the provider's issuer.
    public var checksIssuer = true
    /// RFC 6749 §10.4 and RFC 9700 §4.12: a redirect is reported, never followed with credentials.
    public var followsRedirects = false
    /// RFC 6749 §10.9: the server's certificate is verified against the trusted CA.
    public var verifiesCertificates = true
    /// RFC 6749 §6: a rotated refresh token replaces the stored one at once, so a relaunched
    /// application presents the new one, never the superseded one.
    public var persistsRefreshedTokens = true

    public init() {}

    public static let conforming = ClientBehaviour()
}
