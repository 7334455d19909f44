/// A variant of the reference client with one realistic bug. It declares the reference client's
/// profile, as a buggy library claims to conform, so only the verdicts can expose it.
public struct DefectiveClient: Sendable {
    public var name: String
    public var bug: String
    public var behaviour: ClientBehaviour

    public var factory: ReferenceClientFactory {
        ReferenceClientFactory(behaviour: behaviour, name: "reference+\(name)")
    }

    /// One knob of `ClientBehaviour` each.
    public static let catalogue: [DefectiveClient] = [
        defect("no-refresh-leeway", "refreshes only once the access token has expired, ignoring its declared window") {
            $0.refreshLeeway = .zero
        },
        defect("premature-refresh", "refreshes far earlier than its declared window (a leeway of a whole day)") {
            $0.refreshLeeway = .seconds(86_400)
        },
        defect("ignores-expires-in", "treats every access token as never expiring and relies on 401s to find out") {
            $0.readsExpiresIn = false
        },
        defect("no-refresh-on-401", "surfaces a 401 invalid_token without refreshing") {
            $0.unauthorizedRecovery = .none
        },
        defect("stale-token-replay", "refreshes after a 401 but replays the request with the rejected token") {
            $0.unauthorizedRecovery = .replayWithStaleToken
        },
        defect("drops-absent-refresh-token", "forgets its refresh token when a refresh response carries none") {
            $0.keepsRefreshTokenWhenAbsent = false
        },
        defect("no-single-flight", "lets every concurrent caller start its own refresh with the same refresh token") {
            $0.sharesOneRefresh = false
        },
        defect(
            "token-in-query",
            "sends the access token as an access_token query parameter instead of the Authorization header"
        ) { $0.accessTokenPlacement = .queryParameter },
        defect(
            "refresh-token-to-resource",
            "sends its refresh token to the resource server in an X-Refresh-Token header"
        ) { $0.keepsRefreshTokenFromResource = false },
        defect(
            "retries-token-errors",
            "sends a refused grant again, as if an RFC 6749 §5.2 error were a transient failure"
        ) { $0.retriesTokenErrors = true },
        defect(
            "swallows-error-codes",
            "reports every token endpoint error as a generic failure, losing the RFC 6749 §5.2 code"
        ) { $0.reportsErrorCodes = false },
        defect(
            "no-pkce",
            "runs the authorization code flow without PKCE, so an intercepted code can be redeemed by anyone"
        ) { $0.pkce = .none },
        defect("pkce-plain", "uses the PKCE plain method, putting the verifier itself in the authorization URL") {
            $0.pkce = .plain
        },
        defect("no-state-check", "redeems the code of an authorization response whatever its state (login CSRF)") {
            $0.checksState = false
        },
        defect("predictable-state", "sends the same fixed state with every authorization request") {
            $0.unguessableState = false
        },
        defect("no-iss-check", "ignores the authorization response's iss, open to mix-up attacks (RFC 9207)") {
            $0.checksIssuer = false
        },
        defect(
            "follows-redirects-with-credentials",
            "follows redirects by sending the same request, Authorization header and body included, to the new location"
        ) { $0.followsRedirects = true },
        defect(
            "accepts-any-certificate",
            "switches certificate verification off, so any server can collect its credentials"
        ) { $0.verifiesCertificates = false },
        defect(
            "ignores-pinned-key",
            "is given the provider's public key to pin, but trusts any certificate its CA issued"
        ) { $0.checksPinnedKey = false },
        defect(
            "rotated-refresh-token-not-persisted",
            "keeps a rotated refresh token in memory only, so after a restart it presents the superseded one"
        ) { $0.persistsRefreshedTokens = false },
        defect(
            "refresh-storm-short-lifetime",
            "refreshes on every request when the token lives less than its refresh window"
        ) { $0.clampsLeewayToHalfLifetime = false },
        defect("missing-expiry-means-expired", "treats a token response without a usable expires_in as already expired")
        { $0.missingLifetimeMeansExpired = true },
        defect(
            "drops-string-expires-in",
            #"silently drops an expires_in sent as a string ("120") and never refreshes proactively"#
        ) { $0.readsStringExpiresIn = false },
        defect(
            "null-refresh-token-replaces-previous",
            #"stores "refresh_token": null or "" in place of the refresh token it has"#
        ) { $0.treatsEmptyRefreshTokenAsAbsent = false },
        defect(
            "ignores-rotated-refresh-token",
            "keeps presenting its first refresh token after the provider rotated it"
        ) { $0.storesRotatedRefreshToken = false },
        // Eight rounds break the check many times over and stay well inside a step's real-time
        // limit on a loaded CI machine, where twenty once ran into it (an error, not a failure).
        defect("unbounded-401-loop", "refreshes and replays after every 401, stopped only by a cap of 8 rounds") {
            $0.replayRoundsPer401 = 8
        },
        defect(
            "refresh-on-insufficient-scope",
            "refreshes and replays after a 403 insufficient_scope, which a new token cannot cure"
        ) { $0.refreshesOnInsufficientScope = true },
        defect(
            "recursive-refresh-on-invalid-client",
            "answers a refresh refused with 401 invalid_client with another refresh, up to 10 times"
        ) { $0.refreshesAgainOnInvalidClient = true },
        defect("refresh-on-every-401", "refreshes after a 401 on a request sent with a token that was already replaced")
        { $0.replaysStaleCredentialWithoutRefresh = false },
        defect(
            "replays-after-failed-refresh",
            "replays the rejected request with the old token when the refresh failed"
        ) { $0.replaysAfterFailedRefresh = true },
        defect(
            "waiters-retry-failed-refresh",
            "lets every caller that waited for a failed refresh retry it with the same refresh token"
        ) { $0.waitersRetryFailedRefresh = true },
        defect(
            "retries-invalid-grant",
            "keeps the refresh token refused with invalid_grant and sends it again on the next call"
        ) { $0.discardsTokensOnInvalidGrant = false },
        defect(
            "html-error-as-missing-token",
            #"reports an HTML 502 from the token endpoint as "server response missing access_token""#
        ) { $0.classifiesBodilessErrorsByStatus = false },
        defect("signs-out-on-server-error", "throws its tokens away when a refresh fails with a server error") {
            $0.keepsTokensOnTransientFailure = false
        },
        defect(
            "signs-in-again-with-kept-password",
            "keeps the user's password and, when a refresh fails, signs in with it again, dropping its refresh token"
        ) { $0.discardsPasswordOnceTokensArrive = false },
        defect("never-calls-the-resource", "fails every call to the resource before sending anything") {
            $0.callsTheResource = false
        },
        defect(
            "client-secret-in-authorization-url",
            "puts its client secret in the authorization URL, where browser history and logs keep it"
        ) { $0.keepsSecretOffTheFrontChannel = false },
        defect("retries-5xx-without-bound", "repeats a token request that got a 5xx at once, up to 50 times") {
            $0.attemptsOnServerError = 50
        },
        defect("ignores-retry-after", "asks the token endpoint again before the time its Retry-After named") {
            $0.honoursRetryAfter = false
        },
        defect("retry-after-seconds-only", "understands Retry-After only as delay-seconds, not as an HTTP-date") {
            $0.readsRetryAfterDates = false
        },
        defect(
            "error-body-in-200-as-success",
            #"takes a 200 answer for a token response even when its body is {"error": …}"#
        ) { $0.errorMemberOverridesStatus = false },
        defect(
            "accepts-missing-access-token",
            "stores a token response without access_token and sends an empty bearer token"
        ) { $0.requiresAccessToken = false },
        defect("case-sensitive-token-type", #"refuses token_type "bearer" because it compares with "Bearer" exactly"#) {
            $0.tokenTypeCaseInsensitive = false
        },
        defect("any-token-type-as-bearer", "sends a token of any token_type (mac, DPoP, …) as a Bearer token") {
            $0.refusesOtherTokenTypes = false
        },
        defect("strict-token-response-decoding", "refuses a token response with a member it does not know") {
            $0.ignoresUnknownMembers = false
        },
        defect("client-secret-to-resource", "adds client_id and client_secret query parameters to every resource call")
        { $0.keepsClientSecretFromResource = false },
        defect("client-secret-in-token-url", "puts client_id and client_secret in the token endpoint URL") {
            $0.keepsClientSecretOutOfURLs = false
        },
        defect(
            "keeps-stale-expiry",
            "keeps the previous token's expiry when a refresh response has no expires_in, so the new token looks expired"
        ) {
            $0.replacesExpiryWithEachResponse = false
        },
        defect(
            "credentials-in-error-messages",
            "quotes the token request it sent, refresh token and client secret included, in the errors it raises"
        ) {
            $0.keepsCredentialsOutOfErrors = false
        },
        defect(
            "failed-refresh-sends-unauthenticated",
            "forgets a still-valid access token when a refresh fails, and sends later calls without any token"
        ) {
            $0.keepsTokensWhenRefreshFails = false
        },
        defect(
            "expiry-from-server-date",
            "computes expiry as the server's Date header plus expires_in, so a skewed server clock moves it"
        ) { $0.measuresExpiryFromReceipt = false },
        // OpenID Connect relying-party rules (ClientBehaviour.openIDConnect).
        defect(
            "id-token-signature-unchecked",
            "checks the ID token's header and claims but never its signature, so another key's token passes"
        ) { $0.openIDConnect.checksIDTokenSignature = false },
        defect("id-token-alg-none", "accepts an unsigned ID token (alg: none)") {
            $0.openIDConnect.acceptsUnsignedIDTokens = true
        },
        defect(
            "id-token-algorithm-confusion",
            "takes the algorithm from the ID token's header, so HS256 keyed with the provider's RSA public key passes"
        ) { $0.openIDConnect.takesAlgorithmFromTokenHeader = true },
        defect("id-token-ignores-nonce", "accepts an ID token whatever its nonce, open to ID token replay") {
            $0.openIDConnect.checksNonce = false
        },
        defect("id-token-ignores-aud", "accepts an ID token issued to another client") {
            $0.openIDConnect.checksAudience = false
        },
        defect(
            "id-token-ignores-azp",
            "accepts an ID token presented by another party (azp) or with several audiences and no azp"
        ) {
            $0.openIDConnect.checksAuthorizedParty = false
        },
        defect("id-token-ignores-exp", "accepts an expired ID token, or one without exp") {
            $0.openIDConnect.checksExpiry = false
        },
        defect("id-token-ignores-iat", "accepts an ID token without iat, or issued in the future") {
            $0.openIDConnect.checksIssuedAt = false
        },
        defect("id-token-ignores-at-hash", "accepts an ID token whose at_hash does not match the access token") {
            $0.openIDConnect.checksAccessTokenHash = false
        },
        defect("jwks-never-refetched", "keeps the first JWKS forever, so a rotated signing key is never picked up") {
            $0.openIDConnect.refetchesKeysForUnknownKeyID = false
        },
        defect("jwks-fetched-every-token", "fetches the JWKS again for every ID token instead of caching it") {
            $0.openIDConnect.fetchesKeysForEveryToken = true
        },
        defect("refresh-accepts-changed-sub", "accepts a refreshed ID token for another user (a changed sub)") {
            $0.openIDConnect.checksSubjectOnRefresh = false
        },
        defect("userinfo-sub-unchecked", "uses a userinfo response whose sub is not the ID token's") {
            $0.openIDConnect.checksUserinfoSubject = false
        },
        defect("predictable-nonce", "sends the same fixed nonce with every authentication request") {
            $0.openIDConnect.freshNonces = false
        },
        defect(
            "clock-skew-narrower-than-declared",
            "allows no clock skew on ID token times, though its profile declares 60 s"
        ) {
            $0.openIDConnect.allowedClockSkew = .zero
        },
        defect(
            "jwks-refetch-interval-ignored",
            "fetches the JWKS again for every unknown kid, though its profile declares 30 s between such fetches"
        ) {
            $0.openIDConnect.minimumKeySetRefetchInterval = .zero
        },
        defect("reused-client-assertion", "sends its first private_key_jwt assertion again with every token request") {
            $0.freshClientAssertions = false
        },
        defect(
            "assertion-by-wall-clock",
            "dates its private_key_jwt assertions by the machine's clock, not the one it is given"
        ) {
            $0.datesAssertionsByClientClock = false
        },
        defect("polls-every-second", "polls for a device authorization every second, whatever the interval") {
            $0.honoursPollingInterval = false
        },
        defect("ignores-slow-down", "keeps its polling interval after slow_down") {
            $0.slowsDownWhenAsked = false
        },
        defect("polls-after-denial", "keeps polling after access_denied, expired_token and the code's expiry") {
            $0.stopsPollingOnDenialOrExpiry = false
        },
        defect(
            "ignores-pushed-authorization",
            "sends its authorization requests through the browser though the provider requires pushes"
        ) {
            $0.pushesAuthorizationRequests = false
        },
        defect("reused-request-uri", "opens the request_uri of its first pushed authorization request again") {
            $0.pushesEveryAuthorization = false
        },
        defect(
            "front-channel-after-failed-push",
            "sends the authorization request through the browser when the push fails"
        ) {
            $0.fallsBackToFrontChannel = true
        },
        defect("exchanges-refused-id-token", "trades at the app server the ID token it refused at sign-in") {
            $0.tokenExchange.exchangesAcceptedIDTokenOnly = false
        },
        defect(
            "app-server-refusal-as-sign-in-failure",
            "reports the app server's refusal as a failed sign-in and signs the user out of the provider"
        ) {
            $0.tokenExchange.reportsLeg2Refusals = false
        },
        defect(
            "app-session-renewed-by-exchange",
            "renews the app's tokens by trading the ID token again, never refreshing"
        ) {
            $0.tokenExchange.refreshesAppTokens = false
        },
        defect("expired-id-token-exchanged", "trades the expired ID token again instead of getting a fresh one") {
            $0.tokenExchange.renewsExpiredIDToken = false
        },
        defect("access-token-exchanged", "trades the provider's access token at the app server instead of the ID token")
        {
            $0.tokenExchange.sendsIDTokenAsSubject = false
        },
        defect(
            "invents-verification-uri-complete",
            "shows a verification_uri_complete of its own making when the provider gave none"
        ) {
            $0.showsOnlyIssuedURIs = false
        },
        defect("no-poll-back-off", "polls again at the interval after a device code poll that failed with a 5xx") {
            $0.backsOffAfterFailedPolls = false
        },
        defect("dpop-bound-token-as-bearer", "sends its DPoP-bound access token as a Bearer token, with no proof") {
            $0.dpop.presentsBoundTokensWithProof = false
        },
        defect("reused-dpop-proof", "sends the first DPoP proof it made for a method and URL again") {
            $0.dpop.freshProofPerRequest = false
        },
        defect("dpop-htu-with-query", "puts the query string in its DPoP proofs' htu") {
            $0.dpop.dropsQueryFromHTU = false
        },
        defect("ignores-dpop-nonce", "gives up when a server demands a DPoP nonce, never retrying with it") {
            $0.dpop.nonceRetries = 0
        },
        defect("loops-on-dpop-nonce", "retries with every new DPoP nonce a server demands, up to ten times") {
            $0.dpop.nonceRetries = 10
        },
        defect("retries-dpop-nonce-twice", "retries twice when a server demands one new DPoP nonce after another") {
            $0.dpop.nonceRetries = 2
        },
        defect(
            "forgets-dpop-nonce",
            "uses a server's DPoP nonce for the retry it was demanded for, and then forgets it"
        ) {
            $0.dpop.keepsNonceForLaterRequests = false
        },
        defect("one-dpop-nonce-for-all-servers", "sends the latest DPoP nonce of any server to every server") {
            $0.dpop.keepsNoncesPerServer = false
        },
        defect(
            "dpop-nonce-only-from-errors",
            "learns DPoP nonces from use_dpop_nonce errors only, never from a successful answer"
        ) {
            $0.dpop.readsNonceFromEveryAnswer = false
        },
        defect(
            "bearer-answer-used-as-dpop",
            "keeps a Bearer answer to its DPoP proof as if it were bound, and sends it with the DPoP scheme"
        ) {
            $0.dpop.bearerAnswer = .useAsDPoP
        },
        defect("new-dpop-key-per-token-request", "makes a new DPoP key for every token request, refreshes included") {
            $0.dpop.keepsKeyAcrossRequests = false
        },
    ]

    private static func defect(
        _ name: String,
        _ bug: String,
        _ change: (inout ClientBehaviour) -> Void
    ) -> DefectiveClient {
        DefectiveClient(name: name, bug: bug, behaviour: modified(change))
    }

    private static func modified(_ change: (inout ClientBehaviour) -> Void) -> ClientBehaviour {
        var behaviour = ClientBehaviour.conforming
        change(&behaviour)
        return behaviour
    }
}
