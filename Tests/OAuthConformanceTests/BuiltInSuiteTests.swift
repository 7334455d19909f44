import MockProvider
import Testing

@testable import OAuthConformance

/// A verdict is only worth something if it can go both ways: each built-in scenario passes on the
/// reference client and fails on a client with the bug it exists to catch.
@Suite("The built-in suite judges clients")
struct BuiltInSuiteTests {
    /// A scenario, a defective client it must catch, and the start of the statement of the
    /// expectation that must break. Together the rows make every kind of check fail at least once.
    struct Proof: CustomTestStringConvertible, Sendable {
        let scenario: String
        let defect: String
        let brokenExpectation: String
        var testDescription: String { "\(scenario) catches \(defect)" }
    }

    static let proofs =
        [
            Proof(
                scenario: "refresh/proactive-within-declared-window",
                defect: "no-refresh-leeway",
                brokenExpectation:
                    "the first token request (grant refresh_token) arrives in [expiry(access_token#1) - client.refresh_window"
            ),
            Proof(
                scenario: "refresh/proactive-within-declared-window",
                defect: "premature-refresh",
                brokenExpectation:
                    "the first token request (grant refresh_token) arrives in [expiry(access_token#1) - client.refresh_window"
            ),
            Proof(
                scenario: "refresh/proactive-within-declared-window",
                defect: "ignores-expires-in",
                brokenExpectation: "no resource requests carrying an expired access token"
            ),
            Proof(
                scenario: "retry/401-on-valid-token-refreshes-once-and-replays",
                defect: "no-refresh-on-401",
                brokenExpectation: "every step succeeds"
            ),
            Proof(
                scenario: "retry/401-on-valid-token-refreshes-once-and-replays",
                defect: "stale-token-replay",
                brokenExpectation: "resource request no. 2 carries access_token#2"
            ),
            Proof(
                scenario: "refresh/keeps-refresh-token-when-response-omits-it",
                defect: "drops-absent-refresh-token",
                brokenExpectation: "token request no. 2 (grant refresh_token) carries refresh_token#1"
            ),
            Proof(
                scenario: "concurrency/one-refresh-for-concurrent-expired-requests",
                defect: "no-single-flight",
                brokenExpectation: "number of token requests (from step 2 on) is exactly 1"
            ),
            Proof(
                scenario: "security/tokens-only-in-authorization-header",
                defect: "token-in-query",
                brokenExpectation: "no request carrying an access token in the query string"
            ),
            Proof(
                scenario: "security/tokens-only-in-authorization-header",
                defect: "refresh-token-to-resource",
                brokenExpectation: "no resource requests carrying a refresh token"
            ),
            Proof(
                scenario: "errors/token-error-surfaced/invalid_grant",
                defect: "retries-token-errors",
                brokenExpectation: "number of token requests is at most 1"
            ),
            Proof(
                scenario: "errors/token-error-surfaced/invalid_scope",
                defect: "swallows-error-codes",
                brokenExpectation: "step 1 (sign_in any) outcome"
            ),
            Proof(
                scenario: "security/authorization-request-uses-pkce-s256-and-state",
                defect: "no-pkce",
                brokenExpectation:
                    "authorize request no. 1 has response_type = code, code_challenge of at least 43 characters"
            ),
            Proof(
                scenario: "security/authorization-request-uses-pkce-s256-and-state",
                defect: "pkce-plain",
                brokenExpectation: "authorize request no. 1 has"
            ),
            Proof(
                scenario: "security/authorization-response-state-refused/forged",
                defect: "no-state-check",
                brokenExpectation: "number of token requests (grant authorization_code) is exactly 1"
            ),
            Proof(
                scenario: "security/authorization-request-uses-pkce-s256-and-state",
                defect: "predictable-state",
                brokenExpectation: "authorize request no. 1 has"
            ),
            Proof(
                scenario: "security/authorization-response-issuer-checked/attacker.example",
                defect: "no-iss-check",
                brokenExpectation: "no token requests (grant authorization_code)"
            ),
            Proof(
                scenario: "security/resource-redirect-gets-no-credentials/307",
                defect: "follows-redirects-with-credentials",
                brokenExpectation: "no requests (at the other origin) carrying any credential"
            ),
            Proof(
                scenario: "tls/untrusted-certificate-refused/self_signed",
                defect: "accepts-any-certificate",
                brokenExpectation: "no request"
            ),
            Proof(
                scenario: "tls/pinned-key-mismatch-refused",
                defect: "ignores-pinned-key",
                brokenExpectation: "no request"
            ),
            Proof(
                scenario: "refresh/rotated-refresh-token-survives-restart",
                defect: "rotated-refresh-token-not-persisted",
                brokenExpectation: "token request no. 2 (grant refresh_token) carries refresh_token#2"
            ),
        ] + tokenHandlingProofs

    static let tokenHandlingProofs =
        [
            Proof(
                scenario: "refresh/short-lifetime-below-window",
                defect: "refresh-storm-short-lifetime",
                brokenExpectation: "number of token requests (grant refresh_token) is at most 3"
            ),
            Proof(
                scenario: "refresh/missing-expires-in-relies-on-401",
                defect: "missing-expiry-means-expired",
                brokenExpectation: "number of token requests (grant refresh_token) is exactly 1"
            ),
            Proof(
                scenario: "refresh/string-expires-in-not-dropped",
                defect: "drops-string-expires-in",
                brokenExpectation: "no resource requests carrying an expired access token"
            ),
            Proof(
                scenario: "refresh/string-expires-in-on-refresh-not-dropped",
                defect: "drops-string-expires-in",
                brokenExpectation: "no resource requests carrying an expired access token"
            ),
            Proof(
                scenario: "refresh/odd-expires-in-on-refresh/0",
                defect: "missing-expiry-means-expired",
                brokenExpectation: "number of token requests (grant refresh_token) is exactly 1"
            ),
            Proof(
                scenario: "refresh/keeps-refresh-token-when-response-has-null",
                defect: "null-refresh-token-replaces-previous",
                brokenExpectation: "token request no. 2 (grant refresh_token) carries refresh_token#1"
            ),
            Proof(
                scenario: "refresh/rotated-refresh-token-replaces-previous",
                defect: "ignores-rotated-refresh-token",
                brokenExpectation: "token request no. 2 (grant refresh_token) carries refresh_token#2"
            ),
            Proof(
                scenario: "retry/401-storm-bounded",
                defect: "unbounded-401-loop",
                brokenExpectation: "number of token requests (from step 2 on) is at most 1"
            ),
            Proof(
                scenario: "retry/insufficient-scope-not-refreshed",
                defect: "refresh-on-insufficient-scope",
                brokenExpectation: "number of token requests (from step 2 on) is exactly 0"
            ),
            Proof(
                scenario: "retry/invalid-client-on-refresh-not-recursed",
                defect: "recursive-refresh-on-invalid-client",
                brokenExpectation: "number of token requests (from step 2 on) is exactly 1"
            ),
            Proof(
                scenario: "retry/stale-credential-replayed-without-new-refresh",
                defect: "refresh-on-every-401",
                brokenExpectation: "number of token requests (from step 2 on) is exactly 1"
            ),
            Proof(
                scenario: "retry/no-replay-after-failed-refresh",
                defect: "replays-after-failed-refresh",
                brokenExpectation: "number of resource requests is exactly 1"
            ),
            Proof(
                scenario: "concurrency/failed-refresh-fails-every-waiter",
                defect: "waiters-retry-failed-refresh",
                brokenExpectation: "number of token requests (from step 2 on) is exactly 1"
            ),
            Proof(
                scenario: "errors/invalid-grant-on-refresh-requires-sign-in",
                defect: "retries-invalid-grant",
                brokenExpectation: "step 4 (request GET /resource) outcome"
            ),
            Proof(
                scenario: "errors/server-error-on-refresh/502",
                defect: "html-error-as-missing-token",
                brokenExpectation: "step 3 (request GET /resource) outcome"
            ),
            Proof(
                scenario: "errors/transient-refresh-failure-recovers",
                defect: "signs-out-on-server-error",
                brokenExpectation: "step 5 (request GET /resource) outcome"
            ),
            Proof(
                scenario: "refresh/failed-refresh-keeps-valid-token",
                defect: "signs-in-again-with-kept-password",
                brokenExpectation:
                    "invariant: the user's password is used only by a login step, never again once tokens were obtained"
            ),
            Proof(
                scenario: "security/tokens-only-in-authorization-header",
                defect: "never-calls-the-resource",
                brokenExpectation: "every step succeeds"
            ),
            Proof(
                scenario: "security/authorization-request-uses-pkce-s256-and-state",
                defect: "client-secret-in-authorization-url",
                brokenExpectation:
                    "invariant: no authorization URL carries the client secret, a token, the password or the PKCE verifier"
            ),
            Proof(
                scenario: "errors/server-errors-bounded",
                defect: "retries-5xx-without-bound",
                brokenExpectation: "number of token requests (grant refresh_token) is at most 6"
            ),
            Proof(
                scenario: "errors/retry-after-honoured/429-seconds",
                defect: "ignores-retry-after",
                brokenExpectation: "the first token request (grant refresh_token, status 200) arrives in"
            ),
            Proof(
                scenario: "errors/retry-after-honoured/503-http_date",
                defect: "retry-after-seconds-only",
                brokenExpectation: "step 5 (request GET /resource) outcome"
            ),
            Proof(
                scenario: "errors/error-body-with-200/login",
                defect: "error-body-in-200-as-success",
                brokenExpectation: "step 1 (sign_in any) outcome"
            ),
            Proof(
                scenario: "errors/missing-access-token/password",
                defect: "accepts-missing-access-token",
                brokenExpectation: "no resource requests"
            ),
            Proof(
                scenario: "errors/token-type-case-insensitive",
                defect: "case-sensitive-token-type",
                brokenExpectation: "every step succeeds"
            ),
            Proof(
                scenario: "errors/unsupported-token-type-refused/dpop",
                defect: "any-token-type-as-bearer",
                brokenExpectation: "no resource requests"
            ),
            Proof(
                scenario: "errors/unsupported-token-type-on-refresh-refused/mac",
                defect: "any-token-type-as-bearer",
                brokenExpectation: "no resource requests"
            ),
            Proof(
                scenario: "errors/unknown-members-ignored",
                defect: "strict-token-response-decoding",
                brokenExpectation: "every step succeeds"
            ),
            Proof(
                scenario: "security/client-secret-never-reaches-resource",
                defect: "client-secret-to-resource",
                brokenExpectation: "no resource requests carrying the client secret"
            ),
            Proof(
                scenario: "security/client-secret-not-in-token-url",
                defect: "client-secret-in-token-url",
                brokenExpectation: "no token requests carrying the client secret in the query string"
            ),
            Proof(
                scenario: "refresh/server-clock-behind-no-refresh-loop",
                defect: "expiry-from-server-date",
                brokenExpectation: "number of token requests (grant refresh_token) is exactly 0"
            ),
        ] + reachProofs

    /// The families a scenario reaches for every client, not only for those that refresh on a 401.
    static let reachProofs = [
        Proof(
            scenario: "refresh/refresh-response-without-expires-in",
            defect: "keeps-stale-expiry",
            brokenExpectation: "number of token requests (grant refresh_token) is exactly 1"
        ),
        Proof(
            scenario: "refresh/failed-refresh-keeps-valid-token",
            defect: "failed-refresh-sends-unauthenticated",
            brokenExpectation: "no resource requests (without a bearer token)"
        ),
        Proof(
            scenario: "security/error-messages-reveal-no-credentials/refresh-refused",
            defect: "credentials-in-error-messages",
            brokenExpectation: "no error the client reports quotes a token"
        ),
        Proof(
            scenario: "security/error-messages-reveal-no-credentials/login-refused",
            defect: "credentials-in-error-messages",
            brokenExpectation: "no error the client reports quotes a token"
        ),
        Proof(
            scenario: "refresh/odd-expires-in/0",
            defect: "missing-expiry-means-expired",
            brokenExpectation: "number of token requests (grant refresh_token) is exactly 0"
        ),
        Proof(
            scenario: "oidc/id-token-signed-by-another-key-refused/rs256",
            defect: "id-token-signature-unchecked",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-signed-by-another-key-refused/es256",
            defect: "id-token-signature-unchecked",
            brokenExpectation: "no requests (presenting access_token#1)"
        ),
        Proof(
            scenario: "oidc/id-token-unsigned-refused",
            defect: "id-token-alg-none",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-algorithm-confusion-refused",
            defect: "id-token-algorithm-confusion",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-nonce-mismatch-refused",
            defect: "id-token-ignores-nonce",
            brokenExpectation: "no requests (presenting access_token#1)"
        ),
        Proof(
            scenario: "oidc/id-token-audience-mismatch-refused",
            defect: "id-token-ignores-aud",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-authorized-party-mismatch-refused",
            defect: "id-token-ignores-azp",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-expired-refused",
            defect: "id-token-ignores-exp",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-missing-claim-refused/iat",
            defect: "id-token-ignores-iat",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-access-token-hash-mismatch-refused",
            defect: "id-token-ignores-at-hash",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/signing-key-rotation-followed",
            defect: "jwks-never-refetched",
            brokenExpectation: "step 2 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/jwks-cached-across-sign-ins",
            defect: "jwks-fetched-every-token",
            brokenExpectation: "number of jwks requests is exactly 1"
        ),
        Proof(
            scenario: "oidc/refresh-id-token-for-another-user-refused",
            defect: "refresh-accepts-changed-sub",
            brokenExpectation: "the signed-in user is never anyone but the one of the first sign-in"
        ),
        Proof(
            scenario: "oidc/refresh-id-token-for-another-user-refused",
            defect: "refresh-accepts-changed-sub",
            brokenExpectation: "no requests (presenting access_token#2)"
        ),
        Proof(
            scenario: "oidc/userinfo-subject-mismatch-refused",
            defect: "userinfo-sub-unchecked",
            brokenExpectation: "step 2 (userinfo) outcome"
        ),
        Proof(
            scenario: "oidc/nonce-fresh-and-unguessable",
            defect: "predictable-nonce",
            brokenExpectation: "every authorize request has a nonce of its own"
        ),
        Proof(
            scenario: "device/polling-keeps-the-interval/none",
            defect: "polls-every-second",
            brokenExpectation: "device_code polls come no sooner than the interval"
        ),
        Proof(
            scenario: "device/slow-down-adds-five-seconds",
            defect: "ignores-slow-down",
            brokenExpectation: "device_code polls come no sooner than the interval"
        ),
        Proof(
            scenario: "device/denial-ends-polling",
            defect: "polls-after-denial",
            brokenExpectation: "step 1 (device_sign_in) outcome"
        ),
        Proof(
            scenario: "device/expired-code-ends-polling",
            defect: "polls-after-denial",
            brokenExpectation: "number of token requests (grant device_code) is at most 13"
        ),
        Proof(
            scenario: "security/pushed-authorization-request-by-reference",
            defect: "ignores-pushed-authorization",
            brokenExpectation: "step 1 (authorize) outcome"
        ),
        Proof(
            scenario: "security/pushed-authorization-request-per-authorization",
            defect: "reused-request-uri",
            brokenExpectation: "every authorize request has a request_uri of its own"
        ),
        Proof(
            scenario: "security/pushed-authorization-refused-no-front-channel",
            defect: "front-channel-after-failed-push",
            brokenExpectation: "no authorize requests"
        ),
        Proof(
            scenario: "security/private-key-jwt-fresh-assertion-per-request",
            defect: "reused-client-assertion",
            brokenExpectation: "every token request has a client_assertion of its own"
        ),
        Proof(
            scenario: "security/private-key-jwt-assertion-dated-by-client-clock",
            defect: "assertion-by-wall-clock",
            brokenExpectation: "step 1 (login client_credentials) outcome"
        ),
        Proof(
            scenario: "oidc/unknown-key-refetches-spaced-as-declared",
            defect: "jwks-refetch-interval-ignored",
            brokenExpectation: "jwks requests from no. 2 on arrive at least client.jwks_refetch_interval apart"
        ),
        Proof(
            scenario: "oidc/id-token-expired-within-declared-skew-accepted",
            defect: "clock-skew-narrower-than-declared",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-issued-within-declared-skew-accepted",
            defect: "clock-skew-narrower-than-declared",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-expired-beyond-declared-skew-refused",
            defect: "id-token-ignores-exp",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/id-token-issued-beyond-declared-skew-refused",
            defect: "id-token-ignores-iat",
            brokenExpectation: "step 1 (sign_in) outcome"
        ),
        Proof(
            scenario: "oidc/third-party-sign-in/refused-sign-in-never-exchanged",
            defect: "exchanges-refused-id-token",
            brokenExpectation: "no app_token requests"
        ),
        Proof(
            scenario: "oidc/third-party-sign-in/app-server-refusal-surfaced-as-leg-2/invalid_grant",
            defect: "app-server-refusal-as-sign-in-failure",
            brokenExpectation: "step 2 (exchange) outcome"
        ),
        Proof(
            scenario: "oidc/third-party-sign-in/app-server-refusal-surfaced-as-leg-2/invalid_client",
            defect: "app-server-refusal-as-sign-in-failure",
            brokenExpectation: "the user of the first sign-in stays signed in"
        ),
        Proof(
            scenario: "oidc/third-party-sign-in/app-tokens-refreshed-at-app-server",
            defect: "app-session-renewed-by-exchange",
            brokenExpectation: "number of app_token requests (grant refresh_token, presenting app_refresh_token#1)"
        ),
        Proof(
            scenario: "oidc/third-party-sign-in/refused-app-refresh-exchanges-fresh-id-token",
            defect: "expired-id-token-exchanged",
            brokenExpectation: "number of app_token requests (presenting id_token#1) is exactly 1"
        ),
        Proof(
            scenario: "oidc/third-party-sign-in/refused-app-refresh-exchanges-fresh-id-token",
            defect: "expired-id-token-exchanged",
            brokenExpectation: "in this order: the first token request (grant refresh_token)"
        ),
        Proof(
            scenario: "oidc/third-party-sign-in/exchanged-for-app-tokens",
            defect: "access-token-exchanged",
            brokenExpectation: "step 2 (exchange) outcome"
        ),
        Proof(
            scenario: "security/client-secret-jwt-fresh-assertion-per-request",
            defect: "reused-client-assertion",
            brokenExpectation: "every token request has a client_assertion of its own"
        ),
        Proof(
            scenario: "security/client-secret-jwt-fresh-assertion-per-request",
            defect: "client-secret-in-token-url",
            brokenExpectation: "no token requests carrying the client secret"
        ),
        Proof(
            scenario: "dpop/bearer-answer-refused-as-declared",
            defect: "bearer-answer-used-as-dpop",
            brokenExpectation: "step 1 (sign_in any) outcome"
        ),
        Proof(
            scenario: "device/shown-what-the-provider-issued/complete-uri-false",
            defect: "invents-verification-uri-complete",
            brokenExpectation: "every step succeeds"
        ),
        Proof(
            scenario: "security/pushed-authorization-request-uri-used-before-expiry",
            defect: "reused-request-uri",
            brokenExpectation: "step 3 (authorize) outcome"
        ),
        Proof(
            scenario: "device/server-errors-slow-the-polling",
            defect: "no-poll-back-off",
            brokenExpectation: "token requests (grant device_code) from no. 2 on arrive at least 10s apart"
        ),
        Proof(
            scenario: "security/native-app-loopback-sign-in",
            defect: "native-app-localhost-redirect",
            brokenExpectation: "every step succeeds"
        ),
        Proof(
            scenario: "dpop/bound-token-presented-with-proof",
            defect: "dpop-bound-token-as-bearer",
            brokenExpectation: "no resource requests presenting a DPoP-bound access token as a bearer token"
        ),
        Proof(
            scenario: "dpop/fresh-proof-per-request",
            defect: "reused-dpop-proof",
            brokenExpectation: "no request carrying a DPoP proof whose jti was used before"
        ),
        Proof(
            scenario: "dpop/proof-target-without-query",
            defect: "dpop-htu-with-query",
            brokenExpectation: "every step succeeds"
        ),
        Proof(
            scenario: "dpop/token-endpoint-nonce-retried-once",
            defect: "ignores-dpop-nonce",
            brokenExpectation: "every step succeeds"
        ),
        Proof(
            scenario: "dpop/nonce-demands-bounded",
            defect: "loops-on-dpop-nonce",
            brokenExpectation: "number of token requests is at most 3"
        ),
        Proof(
            scenario: "dpop/nonce-demands-bounded",
            defect: "retries-dpop-nonce-twice",
            brokenExpectation: "number of token requests is at most 2"
        ),
        Proof(
            scenario: "dpop/token-endpoint-nonce-retried-once",
            defect: "forgets-dpop-nonce",
            brokenExpectation: "number of token requests is exactly 3"
        ),
        Proof(
            scenario: "dpop/resource-nonce-retried-once-and-kept",
            defect: "forgets-dpop-nonce",
            brokenExpectation: "no request carrying a DPoP proof without the server's latest nonce"
        ),
        Proof(
            scenario: "dpop/resource-nonce-retried-once-and-kept",
            defect: "one-dpop-nonce-for-all-servers",
            brokenExpectation: "no request carrying a DPoP proof without the server's latest nonce"
        ),
        Proof(
            scenario: "dpop/nonce-from-successful-answer-used",
            defect: "dpop-nonce-only-from-errors",
            brokenExpectation: "no token requests carrying a DPoP proof without the server's latest nonce"
        ),
        Proof(
            scenario: "dpop/bound-refresh-token-used-with-same-key",
            defect: "new-dpop-key-per-token-request",
            brokenExpectation: "every step succeeds"
        ),
        Proof(
            scenario: "security/private-key-jwt-fresh-assertion-after-dpop-nonce",
            defect: "reused-client-assertion",
            brokenExpectation: "every token request has a client_assertion of its own"
        ),
        Proof(
            scenario: "mcp/protected-resource-metadata-from-challenge",
            defect: "mcp-ignores-challenge-metadata-url",
            brokenExpectation: "no prm requests"
        ),
        Proof(
            scenario: "mcp/protected-resource-metadata-from-challenge-at-its-own-path",
            defect: "mcp-ignores-challenge-metadata-url",
            brokenExpectation: "number of prm_named requests is exactly 1"
        ),
        Proof(
            scenario: "mcp/protected-resource-metadata-well-known-order",
            defect: "mcp-root-metadata-first",
            brokenExpectation: "no prm_root requests"
        ),
        Proof(
            scenario: "mcp/protected-resource-metadata-root-fallback",
            defect: "mcp-no-root-metadata-fallback",
            brokenExpectation:
                "in this order: the first prm request, then the first prm_root request, then the first authorize request"
        ),
        Proof(
            scenario: "mcp/protected-resource-metadata-for-another-resource-refused",
            defect: "mcp-any-metadata-resource",
            brokenExpectation: "no metadata requests (during step 1)"
        ),
        Proof(
            scenario: "mcp/authorization-server-metadata-order/oauth-path-inserted",
            defect: "mcp-openid-configuration-first",
            brokenExpectation: "no openid_configuration requests"
        ),
        Proof(
            scenario: "mcp/authorization-server-metadata-order/openid-path-appended",
            defect: "mcp-drops-issuer-path",
            brokenExpectation: "step 1 (mcp_sign_in) outcome"
        ),
        Proof(
            scenario: "mcp/authorization-server-metadata-issuer-mismatch-refused",
            defect: "mcp-any-metadata-issuer",
            brokenExpectation: "number of authorize requests is exactly 1"
        ),
        Proof(
            scenario: "mcp/pkce-s256-required/plain-only",
            defect: "mcp-proceeds-without-s256",
            brokenExpectation: "step 1 (mcp_sign_in) outcome"
        ),
        Proof(
            scenario: "mcp/resource-names-the-server",
            defect: "mcp-no-resource-in-authorization-request",
            brokenExpectation: "authorize request no. 1 has resource = the MCP server's URI"
        ),
        Proof(
            scenario: "mcp/resource-names-the-server",
            defect: "mcp-no-resource-in-token-requests",
            brokenExpectation: "token request no. 1 (grant refresh_token) has resource = the MCP server's URI"
        ),
        Proof(
            scenario: "mcp/scope-from-challenge",
            defect: "mcp-ignores-challenge-scope",
            brokenExpectation: "authorize request no. 1 has scope = files:read"
        ),
        Proof(
            scenario: "mcp/scope-omitted-when-undefined",
            defect: "mcp-scope-from-server-metadata",
            brokenExpectation: "authorize request no. 1 has no scope"
        ),
        Proof(
            scenario: "mcp/offline-access-only-when-listed",
            defect: "mcp-offline-access-unlisted",
            brokenExpectation: "authorize request no. 1 has scope without offline_access"
        ),
        Proof(
            scenario: "mcp/step-up-asks-for-the-union",
            defect: "mcp-no-step-up",
            brokenExpectation: "step 2 (mcp_call tools/call) outcome"
        ),
        Proof(
            scenario: "mcp/step-up-asks-for-the-union",
            defect: "mcp-step-up-drops-granted-scopes",
            brokenExpectation: "authorize request no. 2 has scope including files:read"
        ),
        Proof(
            scenario: "mcp/step-up-bounded",
            defect: "mcp-no-step-up",
            brokenExpectation: "number of authorize requests is at least 2"
        ),
        Proof(
            scenario: "mcp/step-up-bounded",
            defect: "mcp-step-up-unbounded",
            brokenExpectation: "step 2 (mcp_call tools/call) outcome"
        ),
        Proof(
            scenario: "mcp/step-up-bounded-across-calls",
            defect: "mcp-step-up-limit-per-call",
            brokenExpectation: "number of authorize requests is at most 4"
        ),
        Proof(
            scenario: "mcp/authorization-response-issuer-checked/issuer_with_trailing_slash",
            defect: "mcp-normalizes-iss",
            brokenExpectation: "step 1 (mcp_sign_in) outcome"
        ),
        Proof(
            scenario: "mcp/authorization-response-issuer-checked/issuer_with_upper_case_scheme",
            defect: "mcp-normalizes-iss",
            brokenExpectation: "step 1 (mcp_sign_in) outcome"
        ),
        Proof(
            scenario: "mcp/authorization-response-without-iss-accepted-when-unadvertised",
            defect: "mcp-demands-unadvertised-iss",
            brokenExpectation: "step 1 (mcp_sign_in) outcome"
        ),
        Proof(
            scenario: "mcp/authorization-error-response-with-wrong-iss-not-acted-on",
            defect: "no-iss-check",
            brokenExpectation: "step 1 (mcp_sign_in) outcome"
        ),
        Proof(
            scenario: "mcp/pre-registered-client-id-used",
            defect: "mcp-registers-when-pre-registered",
            brokenExpectation: "number of register requests is exactly 0"
        ),
        Proof(
            scenario: "mcp/client-id-metadata-document-used-when-advertised",
            defect: "mcp-dcr-when-cimd-advertised",
            brokenExpectation: "number of register requests is exactly 0"
        ),
        Proof(
            scenario: "mcp/dynamic-registration-used-without-cimd",
            defect: "mcp-cimd-when-not-advertised",
            brokenExpectation: "number of register requests (status 201) is exactly 1"
        ),
        Proof(
            scenario: "mcp/dynamic-registration-sends-application-type",
            defect: "mcp-registers-without-application-type",
            brokenExpectation: "register request no. 1 has application_type present"
        ),
        Proof(
            scenario: "mcp/registration-refused-surfaced/invalid_client_metadata",
            defect: "mcp-ignores-registration-refusal",
            brokenExpectation: "number of authorize requests is exactly 1"
        ),
        Proof(
            scenario: "mcp/registration-refused-surfaced/invalid_redirect_uri",
            defect: "mcp-ignores-registration-refusal",
            brokenExpectation: "number of authorize requests is exactly 1"
        ),
        Proof(
            scenario: "mcp/registration-without-client-id-refused",
            defect: "mcp-takes-registration-without-client-id",
            brokenExpectation: "number of authorize requests is exactly 1"
        ),
        Proof(
            scenario: "mcp/registration-substituted-auth-method-honoured",
            defect: "mcp-ignores-registered-auth-method",
            brokenExpectation: "no token requests (status 401)"
        ),
        Proof(
            scenario: "mcp/authorization-server-change-registers-anew",
            defect: "mcp-registration-reused-at-another-authorization-server",
            brokenExpectation: "no request carrying another authorization server's credentials"
        ),
        Proof(
            scenario: "mcp/authorization-server-change-pre-registration-not-carried-over",
            defect: "mcp-pre-registration-used-at-another-authorization-server",
            brokenExpectation: "no request carrying another authorization server's credentials"
        ),
        Proof(
            scenario: "mcp/scope-from-protected-resource-metadata",
            defect: "mcp-first-metadata-scope-only",
            brokenExpectation: "authorize request no. 1 has scope including files:write"
        ),
        Proof(
            scenario: "mcp/dynamic-registration-names-refresh-token-grant",
            defect: "mcp-registers-without-refresh-token-grant",
            brokenExpectation: "register request no. 1 has grant_types including refresh_token"
        ),
        Proof(
            scenario: "mcp/legacy-discovery-metadata-at-server-origin",
            defect: "mcp-legacy-skips-metadata",
            brokenExpectation:
                "in this order: the first prm request, then the first prm_root request, then the first metadata request (at /.well-known/oauth-authorization-server, status 200), then the first authorize request"
        ),
        Proof(
            scenario: "mcp/legacy-discovery-default-endpoints",
            defect: "mcp-legacy-no-default-endpoints",
            brokenExpectation: "step 1 (mcp_sign_in) outcome"
        ),
        Proof(
            scenario: "mcp/token-endpoint-auth-method-offered/client_secret_basic",
            defect: "mcp-registers-none-whatever-offered",
            brokenExpectation: "number of register requests (status 201) is exactly 1"
        ),
        Proof(
            scenario: "mcp/token-endpoint-auth-method-offered/client_secret_post",
            defect: "mcp-registers-none-whatever-offered",
            brokenExpectation: "register request no. 1 (status 201) has token_endpoint_auth_method = client_secret_post"
        ),
        Proof(
            scenario: "mcp/token-endpoint-auth-method-offered/client_secret_post",
            defect: "mcp-registers-default-auth-method",
            brokenExpectation: "register request no. 1 (status 201) has token_endpoint_auth_method = client_secret_post"
        ),
        Proof(
            scenario: "mcp/token-endpoint-auth-method-offered/none",
            defect: "mcp-registers-default-auth-method",
            brokenExpectation: "register request no. 1 (status 201) has token_endpoint_auth_method = none"
        ),
        Proof(
            scenario: "mcp/token-endpoint-auth-method-offered/client_secret_post",
            defect: "mcp-basic-for-client-secret-post",
            brokenExpectation: "no token requests (status 401)"
        ),
    ]

    /// The reference client declares `dpop_downgrade: refuse`, so the defects run against that
    /// scenario; the `use_as_bearer` one needs a client that declares that policy, and a broken one.
    @Test(
        "a client declaring dpop_downgrade: use_as_bearer passes its scenario by using the token as Bearer, and fails it by sending it with the DPoP scheme"
    )
    func bearerAnswerUsedAsDeclared() async throws {
        let scenario = try #require(
            try Fixtures.builtInScenarios().first { $0.id == "dpop/bearer-answer-used-as-bearer-as-declared" }
        )
        func run(_ answer: DPoPBehaviour.BearerAnswer) async -> ScenarioResult {
            var behaviour = ClientBehaviour.conforming
            behaviour.dpop.bearerAnswer = answer
            var factory = ReferenceClientFactory(behaviour: behaviour)
            factory.profile.capabilities.remove(.dpopDowngradeRefused)
            factory.profile.capabilities.insert(.dpopDowngradeUsedAsBearer)
            return await ScenarioRunner().run(scenario, with: factory)
        }
        let conforming = await run(.useAsBearer)
        #expect(conforming.verdict == .passed, "\(conforming.failedChecks.map(\.summary))")
        let broken = await run(.useAsDPoP)
        #expect(broken.verdict == .failed)
        #expect(broken.failedChecks.contains { $0.statement.hasPrefix("every step succeeds") })
    }

    @Test("the reference client passes every built-in scenario")
    func referencePasses() async throws {
        let run = await SuiteRunner().run(try Fixtures.builtInScenarios(), with: ReferenceClientFactory())
        #expect(run.results.count >= 3)
        for result in run.results {
            // The one POLICY scenario written for the other choice than the reference client's own
            // (`dpop_downgrade: refuse`) is skipped; `bearerAnswerUsedAsDeclared` runs it.
            if Fixtures.writtenForAnotherPolicy(result.scenario) {
                #expect(result.verdict == .skipped(reason: "the client does not declare dpop_downgrade_used_as_bearer"))
                continue
            }
            #expect(result.verdict == .passed, "\(result.scenario.id): \(result.failedChecks.map(\.summary))")
        }
    }

    // One proof at a time: eighty scenario runs at once, each with its servers and RSA signatures,
    // starve a two-core CI machine until steps time out; one after another they take seconds.
    @Test("a defective client fails the scenario, naming the broken expectation", .serialized, arguments: proofs)
    func defectIsCaught(_ proof: Proof) async throws {
        let scenario = try Fixtures.builtInScenario(proof.scenario)
        let result = await ScenarioRunner().run(scenario, with: try Fixtures.defect(proof.defect).factory)
        #expect(result.verdict == .failed)
        let broken = result.failedChecks.filter { $0.statement.hasPrefix(proof.brokenExpectation) }
        #expect(!broken.isEmpty, "failed checks were: \(result.failedChecks.map(\.statement))")
        let failureMessage = result.failedChecks.map(\.summary).joined(separator: "; ")
        #expect(failureMessage.contains(proof.brokenExpectation))
    }

    @Test("every kind of check is shown failing by some proof")
    func everyCheckKindCanFail() async throws {
        var failedKinds = Set<String>()
        for proof in Self.proofs {
            let result = await ScenarioRunner().run(
                try Fixtures.builtInScenario(proof.scenario),
                with: try Fixtures.defect(proof.defect).factory
            )
            failedKinds.formUnion(
                result.failedChecks.filter { $0.statement.hasPrefix(proof.brokenExpectation) }.map(\.kind)
            )
        }
        let usedKinds = Set(try Fixtures.builtInScenarios().flatMap(\.expectations).map(\.kind))
        #expect(usedKinds.isSubset(of: failedKinds), "never shown failing: \(usedKinds.subtracting(failedKinds))")
    }

    @Test(
        "conformance selftest: the reference client passes the whole suite and every defective client is caught (mutation score 100%)"
    )
    func selftestSucceeds() async throws {
        let report = await Selftest(jobs: 4).run(try Fixtures.builtInScenarios())
        #expect(report.reference.results.count >= 60, "the suite gives \(report.reference.results.count) results")
        #expect(
            report.reference.isAsExpected,
            "reference client failed: \(report.reference.failedScenarios + report.reference.erroredScenarios)"
        )
        for row in report.defects {
            #expect(row.isAsExpected, "\(row.client) (\(row.defect?.bug ?? "")) passed the whole suite")
        }
        #expect(report.mutationScore == 100 && report.succeeded, "\(report.summary)")
    }

    @Test("every defective client in the catalogue has a proof row naming the scenario that catches it")
    func everyDefectHasAProof() {
        for defect in DefectiveClient.catalogue {
            #expect(Self.proofs.contains { $0.defect == defect.name }, "\(defect.name) has no proof row")
        }
    }
}
