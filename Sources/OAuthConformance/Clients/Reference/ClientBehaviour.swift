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
    /// The §5.2 code is a field of the error the application gets. Without it, the code is only
    /// words of a generic error's message (`"invalid_grant: …"`), as some libraries raise it.
    public var surfacesErrorCodeAsField = true
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
    /// A pinned public key, when given, is required of every origin before a credential goes there.
    public var checksPinnedKey = true
    /// RFC 6749 §6: a rotated refresh token replaces the stored one at once, so a relaunched
    /// application presents the new one, never the superseded one.
    public var persistsRefreshedTokens = true

    // Refresh timing, token responses, recovery and transient errors (catalogue PR, RR, SF, TE).
    /// PR-05: a lifetime shorter than twice the window is refreshed at half-life, not on every request.
    public var clampsLeewayToHalfLifetime = true
    /// PR-03: a missing or unusable `expires_in` means "no stated lifetime", not "already expired".
    public var missingLifetimeMeansExpired = false
    /// PR-04: `"expires_in": "3600"` is read as a number instead of being dropped.
    public var readsStringExpiresIn = true
    /// TE-14: a `refresh_token` that is `null` or `""` counts as absent.
    public var treatsEmptyRefreshTokenAsAbsent = true
    /// TE-15: a rotated refresh token replaces the stored one.
    public var storesRotatedRefreshToken = true
    /// RR-02: refresh-and-replay rounds one request may go through after 401s.
    public var replayRoundsPer401 = 1
    /// RR-03: a 403 `insufficient_scope` is answered with a refresh and a replay (it cannot add scope).
    public var refreshesOnInsufficientScope = false
    /// RR-05: a refresh refused with `invalid_client` is followed by another refresh.
    public var refreshesAgainOnInvalidClient = false
    /// RR-06: a 401 on a request sent with a token already replaced is replayed with the current one, without a refresh.
    public var replaysStaleCredentialWithoutRefresh = true
    /// A request is replayed with the rejected token even when the refresh failed.
    public var replaysAfterFailedRefresh = false
    /// SF-03: callers that waited for a shared refresh that failed each try again with the same refresh token.
    public var waitersRetryFailedRefresh = false
    /// TE-02: `invalid_grant` on a refresh discards the tokens, so the dead refresh token is not sent again.
    public var discardsTokensOnInvalidGrant = true
    /// TE-04: an answer without a JSON body is classified by its HTTP status (a 502 is a server error).
    public var classifiesBodilessErrorsByStatus = true
    /// A transient refresh failure (5xx, 429, transport) leaves the tokens in place.
    public var keepsTokensOnTransientFailure = true
    /// RFC 6749 §4.3.1: the user's password is discarded once tokens arrive. Without it, a
    /// refresh that fails is answered by signing in again with the password the client kept, and
    /// the refresh token is replaced by whatever that sign-in brings.
    public var discardsPasswordOnceTokensArrive = true
    /// The application's calls reach the resource. Without it, every call fails before anything is
    /// sent, as in a library that only obtains tokens and an adapter that left the call out.
    public var callsTheResource = true
    /// Offers the userinfo call (OIDC Core §5.3). Without it, `userinfo` answers unsupported, as in
    /// a relying party that leaves the call to the application.
    public var offersUserinfo = true
    /// RFC 6749 §2.3.1: the client secret never goes in a request URI. Without it, the secret
    /// rides along in the authorization URL, where browser history and server logs keep it.
    public var keepsSecretOffTheFrontChannel = true
    /// TE-05: attempts per token request when the endpoint answers 5xx (1: fail cleanly, and let the caller retry).
    public var attemptsOnServerError = 1
    /// TE-06: after `Retry-After`, no token request before the time it names.
    public var honoursRetryAfter = true
    /// RFC 9110 §10.2.3: `Retry-After` may be an HTTP-date as well as delay-seconds.
    public var readsRetryAfterDates = true
    /// TE-07: an `error` member makes an answer an error, even with status 200.
    public var errorMemberOverridesStatus = true
    /// TE-08: a token response without `access_token` is refused.
    public var requiresAccessToken = true
    /// TE-10: `token_type` is compared case-insensitively (RFC 6749 §5.1).
    public var tokenTypeCaseInsensitive = true
    /// TE-11: a token of a type other than Bearer is refused, never sent as Bearer.
    public var refusesOtherTokenTypes = true
    /// TE-12: unknown members of a token response are ignored (RFC 6749 §5.1).
    public var ignoresUnknownMembers = true
    /// SEC-13: the client secret goes to the token endpoint only.
    public var keepsClientSecretFromResource = true
    /// SEC-14: the client secret never travels in a URL.
    public var keepsClientSecretOutOfURLs = true
    /// PR-06: expiry is `expires_in` from receipt on the client's own clock, never from the server's `Date`.
    public var measuresExpiryFromReceipt = true
    /// PR-03: each token response sets the expiry anew; one without `expires_in` leaves the new
    /// token with no stated lifetime, not with the previous token's expiry.
    public var replacesExpiryWithEachResponse = true
    /// RFC 6749 §10.3, §10.4: the errors it raises never quote a token or the client secret.
    public var keepsCredentialsOutOfErrors = true
    /// A refresh that fails leaves the tokens as they were, so a still-valid access token stays in
    /// use; the defect forgets them and sends later calls without any token.
    public var keepsTokensWhenRefreshFails = true
    /// CA-01, CA-02 (RFC 7523 §3): every `private_key_jwt` token request gets an assertion of its
    /// own, with a fresh `jti`, retries included; the defect sends the first one again.
    public var freshClientAssertions = true
    /// CA-03: assertions are dated by the clock the client reads (here the scenario's virtual
    /// clock), not by the machine's wall clock.
    public var datesAssertionsByClientClock = true
    /// DF-01 (RFC 8628 §3.5): polls no sooner than the interval; the defect polls every second.
    public var honoursPollingInterval = true
    /// DF-02: each `slow_down` adds 5 seconds to the interval for good; the defect ignores it.
    public var slowsDownWhenAsked = true
    /// DF-06 (RFC 8628 §3.3, §3.3.1): the user is shown the user code and URIs the provider issued;
    /// the defect composes a `verification_uri_complete` of its own when the provider gave none.
    public var showsOnlyIssuedURIs = true
    /// DF-05 (RFC 8628 §3.5): after a poll that failed (a 5xx, a timeout) the next waits twice as
    /// long, and again after each further failure in a row; the defect polls again at the interval.
    public var backsOffAfterFailedPolls = true
    /// DF-03, DF-04: `access_denied` and `expired_token` end the polling, and so does the code's
    /// own expiry; the defect polls on as if the user had not acted yet.
    public var stopsPollingOnDenialOrExpiry = true
    /// PA-01 (RFC 9126 §5): given a pushed authorization request endpoint, the client pushes; the
    /// defect sends the request through the browser as if it had none.
    public var pushesAuthorizationRequests = true
    /// PA-01 (RFC 9126 §4): every authorization is pushed anew; the defect opens the first
    /// `request_uri` again.
    public var pushesEveryAuthorization = true
    /// PA-02 (RFC 9126 §5): a push that fails ends the authorization; the defect sends the request
    /// in the front channel instead.
    public var fallsBackToFrontChannel = false
    /// The OpenID Connect relying-party rules: ID token validation, keys, userinfo.
    public var openIDConnect = OpenIDConnectBehaviour.conforming
    /// Leg 2 of a third-party sign-in: the exchange at the app's own server and its session.
    public var tokenExchange = TokenExchangeBehaviour.conforming
    /// DPoP (RFC 9449): proofs, nonces and bound tokens.
    public var dpop = DPoPBehaviour.conforming

    public init() {}

    public static let conforming = ClientBehaviour()
}
