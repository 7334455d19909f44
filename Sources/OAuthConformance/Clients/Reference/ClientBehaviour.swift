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
    /// RFC 8252 §7.3, §8.3: a native app's redirect URI is the registered loopback one, naming the
    /// address its listener is bound to (127.0.0.1) with the port it got; the defect names
    /// `localhost` instead, as libraries that build the URI by hand do.
    public var namesLoopbackByAddress = true
    /// The OpenID Connect relying-party rules: ID token validation, keys, userinfo.
    public var openIDConnect = OpenIDConnectBehaviour.conforming
    /// Leg 2 of a third-party sign-in: the exchange at the app's own server and its session.
    public var tokenExchange = TokenExchangeBehaviour.conforming
    /// DPoP (RFC 9449): proofs, nonces and bound tokens.
    public var dpop = DPoPBehaviour.conforming
    /// MCP authorization: discovery from the server's 401, and `resource` (RFC 8707).
    public var mcp = MCPBehaviour.conforming

    public init() {}

    public static let conforming = ClientBehaviour()
}

extension ClientBehaviour {
    /// The deliberate bugs of the knobs above, each switching one knob from its conforming value, as a
    /// real library's bug would: `DefectiveClient.catalogue` holds them, and `conformance selftest`
    /// proves that some scenario fails each. A new knob gets its defect here, beside it.
    static let defects: [DefectiveClient] = [
        .defect("no-refresh-leeway", "refreshes only once the access token has expired, ignoring its declared window") {
            $0.refreshLeeway = .zero
        },
        .defect("premature-refresh", "refreshes far earlier than its declared window (a leeway of a whole day)") {
            $0.refreshLeeway = .seconds(86_400)
        },
        .defect("ignores-expires-in", "treats every access token as never expiring and relies on 401s to find out") {
            $0.readsExpiresIn = false
        },
        .defect("no-refresh-on-401", "surfaces a 401 invalid_token without refreshing") {
            $0.unauthorizedRecovery = .none
        },
        .defect("stale-token-replay", "refreshes after a 401 but replays the request with the rejected token") {
            $0.unauthorizedRecovery = .replayWithStaleToken
        },
        .defect("drops-absent-refresh-token", "forgets its refresh token when a refresh response carries none") {
            $0.keepsRefreshTokenWhenAbsent = false
        },
        .defect("no-single-flight", "lets every concurrent caller start its own refresh with the same refresh token") {
            $0.sharesOneRefresh = false
        },
        .defect(
            "token-in-query",
            "sends the access token as an access_token query parameter instead of the Authorization header"
        ) { $0.accessTokenPlacement = .queryParameter },
        .defect(
            "refresh-token-to-resource",
            "sends its refresh token to the resource server in an X-Refresh-Token header"
        ) { $0.keepsRefreshTokenFromResource = false },
        .defect(
            "retries-token-errors",
            "sends a refused grant again, as if an RFC 6749 §5.2 error were a transient failure"
        ) { $0.retriesTokenErrors = true },
        .defect(
            "swallows-error-codes",
            "reports every token endpoint error as a generic failure, losing the RFC 6749 §5.2 code"
        ) { $0.reportsErrorCodes = false },
        .defect(
            "no-pkce",
            "runs the authorization code flow without PKCE, so an intercepted code can be redeemed by anyone"
        ) { $0.pkce = .none },
        .defect("pkce-plain", "uses the PKCE plain method, putting the verifier itself in the authorization URL") {
            $0.pkce = .plain
        },
        .defect("no-state-check", "redeems the code of an authorization response whatever its state (login CSRF)") {
            $0.checksState = false
        },
        .defect("predictable-state", "sends the same fixed state with every authorization request") {
            $0.unguessableState = false
        },
        .defect("no-iss-check", "ignores the authorization response's iss, open to mix-up attacks (RFC 9207)") {
            $0.checksIssuer = false
        },
        .defect(
            "follows-redirects-with-credentials",
            "follows redirects by sending the same request, Authorization header and body included, to the new location"
        ) { $0.followsRedirects = true },
        .defect(
            "accepts-any-certificate",
            "switches certificate verification off, so any server can collect its credentials"
        ) { $0.verifiesCertificates = false },
        .defect(
            "ignores-pinned-key",
            "is given the provider's public key to pin, but trusts any certificate its CA issued"
        ) { $0.checksPinnedKey = false },
        .defect(
            "rotated-refresh-token-not-persisted",
            "keeps a rotated refresh token in memory only, so after a restart it presents the superseded one"
        ) { $0.persistsRefreshedTokens = false },
        .defect(
            "refresh-storm-short-lifetime",
            "refreshes on every request when the token lives less than its refresh window"
        ) { $0.clampsLeewayToHalfLifetime = false },
        .defect(
            "missing-expiry-means-expired",
            "treats a token response without a usable expires_in as already expired"
        ) { $0.missingLifetimeMeansExpired = true },
        .defect(
            "drops-string-expires-in",
            #"silently drops an expires_in sent as a string ("120") and never refreshes proactively"#
        ) { $0.readsStringExpiresIn = false },
        .defect(
            "null-refresh-token-replaces-previous",
            #"stores "refresh_token": null or "" in place of the refresh token it has"#
        ) { $0.treatsEmptyRefreshTokenAsAbsent = false },
        .defect(
            "ignores-rotated-refresh-token",
            "keeps presenting its first refresh token after the provider rotated it"
        ) { $0.storesRotatedRefreshToken = false },
        // Eight rounds break the check many times over and stay well inside a step's real-time
        // limit on a loaded CI machine, where twenty once ran into it (an error, not a failure).
        .defect("unbounded-401-loop", "refreshes and replays after every 401, stopped only by a cap of 8 rounds") {
            $0.replayRoundsPer401 = 8
        },
        .defect(
            "refresh-on-insufficient-scope",
            "refreshes and replays after a 403 insufficient_scope, which a new token cannot cure"
        ) { $0.refreshesOnInsufficientScope = true },
        .defect(
            "recursive-refresh-on-invalid-client",
            "answers a refresh refused with 401 invalid_client with another refresh, up to 10 times"
        ) { $0.refreshesAgainOnInvalidClient = true },
        .defect(
            "refresh-on-every-401",
            "refreshes after a 401 on a request sent with a token that was already replaced"
        ) { $0.replaysStaleCredentialWithoutRefresh = false },
        .defect(
            "replays-after-failed-refresh",
            "replays the rejected request with the old token when the refresh failed"
        ) { $0.replaysAfterFailedRefresh = true },
        .defect(
            "waiters-retry-failed-refresh",
            "lets every caller that waited for a failed refresh retry it with the same refresh token"
        ) { $0.waitersRetryFailedRefresh = true },
        .defect(
            "retries-invalid-grant",
            "keeps the refresh token refused with invalid_grant and sends it again on the next call"
        ) { $0.discardsTokensOnInvalidGrant = false },
        .defect(
            "html-error-as-missing-token",
            #"reports an HTML 502 from the token endpoint as "server response missing access_token""#
        ) { $0.classifiesBodilessErrorsByStatus = false },
        .defect("signs-out-on-server-error", "throws its tokens away when a refresh fails with a server error") {
            $0.keepsTokensOnTransientFailure = false
        },
        .defect(
            "signs-in-again-with-kept-password",
            "keeps the user's password and, when a refresh fails, signs in with it again, dropping its refresh token"
        ) { $0.discardsPasswordOnceTokensArrive = false },
        .defect("never-calls-the-resource", "fails every call to the resource before sending anything") {
            $0.callsTheResource = false
        },
        .defect(
            "client-secret-in-authorization-url",
            "puts its client secret in the authorization URL, where browser history and logs keep it"
        ) { $0.keepsSecretOffTheFrontChannel = false },
        .defect("retries-5xx-without-bound", "repeats a token request that got a 5xx at once, up to 50 times") {
            $0.attemptsOnServerError = 50
        },
        .defect("ignores-retry-after", "asks the token endpoint again before the time its Retry-After named") {
            $0.honoursRetryAfter = false
        },
        .defect("retry-after-seconds-only", "understands Retry-After only as delay-seconds, not as an HTTP-date") {
            $0.readsRetryAfterDates = false
        },
        .defect(
            "error-body-in-200-as-success",
            #"takes a 200 answer for a token response even when its body is {"error": …}"#
        ) { $0.errorMemberOverridesStatus = false },
        .defect(
            "accepts-missing-access-token",
            "stores a token response without access_token and sends an empty bearer token"
        ) { $0.requiresAccessToken = false },
        .defect("case-sensitive-token-type", #"refuses token_type "bearer" because it compares with "Bearer" exactly"#)
        {
            $0.tokenTypeCaseInsensitive = false
        },
        .defect("any-token-type-as-bearer", "sends a token of any token_type (mac, DPoP, …) as a Bearer token") {
            $0.refusesOtherTokenTypes = false
        },
        .defect("strict-token-response-decoding", "refuses a token response with a member it does not know") {
            $0.ignoresUnknownMembers = false
        },
        .defect("client-secret-to-resource", "adds client_id and client_secret query parameters to every resource call")
        { $0.keepsClientSecretFromResource = false },
        .defect("client-secret-in-token-url", "puts client_id and client_secret in the token endpoint URL") {
            $0.keepsClientSecretOutOfURLs = false
        },
        .defect(
            "keeps-stale-expiry",
            "keeps the previous token's expiry when a refresh response has no expires_in, so the new token looks expired"
        ) {
            $0.replacesExpiryWithEachResponse = false
        },
        .defect(
            "credentials-in-error-messages",
            "quotes the token request it sent, refresh token and client secret included, in the errors it raises"
        ) {
            $0.keepsCredentialsOutOfErrors = false
        },
        .defect(
            "failed-refresh-sends-unauthenticated",
            "forgets a still-valid access token when a refresh fails, and sends later calls without any token"
        ) {
            $0.keepsTokensWhenRefreshFails = false
        },
        .defect(
            "expiry-from-server-date",
            "computes expiry as the server's Date header plus expires_in, so a skewed server clock moves it"
        ) { $0.measuresExpiryFromReceipt = false },
        .defect("reused-client-assertion", "sends its first private_key_jwt assertion again with every token request") {
            $0.freshClientAssertions = false
        },
        .defect(
            "assertion-by-wall-clock",
            "dates its private_key_jwt assertions by the machine's clock, not the one it is given"
        ) {
            $0.datesAssertionsByClientClock = false
        },
        .defect("polls-every-second", "polls for a device authorization every second, whatever the interval") {
            $0.honoursPollingInterval = false
        },
        .defect("ignores-slow-down", "keeps its polling interval after slow_down") {
            $0.slowsDownWhenAsked = false
        },
        .defect("polls-after-denial", "keeps polling after access_denied, expired_token and the code's expiry") {
            $0.stopsPollingOnDenialOrExpiry = false
        },
        .defect(
            "ignores-pushed-authorization",
            "sends its authorization requests through the browser though the provider requires pushes"
        ) {
            $0.pushesAuthorizationRequests = false
        },
        .defect("reused-request-uri", "opens the request_uri of its first pushed authorization request again") {
            $0.pushesEveryAuthorization = false
        },
        .defect(
            "front-channel-after-failed-push",
            "sends the authorization request through the browser when the push fails"
        ) {
            $0.fallsBackToFrontChannel = true
        },
        .defect(
            "invents-verification-uri-complete",
            "shows a verification_uri_complete of its own making when the provider gave none"
        ) {
            $0.showsOnlyIssuedURIs = false
        },
        .defect(
            "native-app-localhost-redirect",
            "names its native app's loopback redirect URI http://localhost:<port>/…, not the registered 127.0.0.1 it listens on"
        ) {
            $0.namesLoopbackByAddress = false
        },
        .defect("no-poll-back-off", "polls again at the interval after a device code poll that failed with a 5xx") {
            $0.backsOffAfterFailedPolls = false
        },
    ]
}
