/// A behaviour a reader of the clients table cares about ("does it single-flight its refreshes?").
/// Families are the columns of docs/clients.md and the pages of docs/checks.md; a scenario names
/// its own with `family:`, which the scenario files of the built-in suite all do (a test checks),
/// so a new scenario reaches the table without a line of Swift.
public struct BehaviourFamily: Sendable, Hashable, Identifiable {
    /// What a scenario's `family:` says, and the name of the family's pages,
    /// docs/clients/families/<id>.md and docs/checks/<id>.md: `proactive-refresh`.
    public var id: String
    /// `Proactive refresh`: the column heading.
    public var title: String
    /// One sentence on what a conforming client does, shown above the family's scenarios.
    public var summary: String
    /// Its timelines differ between two runs of the same client: requests sent concurrently are
    /// numbered in the order the scheduler picked, an authorization request carries a fresh
    /// state and PKCE challenge, a TLS error names a key made for the run. The clients table,
    /// which must not change between runs, quotes a timeline of such a family only when the
    /// client fails nothing else.
    public var timelinesVaryBetweenRuns = false

    /// The family a scenario's `family:` names; nil for a name no family has.
    public static func named(_ id: String) -> BehaviourFamily? {
        all.first { $0.id == id }
    }

    /// The family a result counts a scenario in: the one it names, or `other` for a scenario
    /// that names none (one of the user's own files, or a result written before families were
    /// recorded), which the table then shows in a column of its own.
    public static func family(of scenario: ScenarioRecord) -> BehaviourFamily {
        scenario.family.flatMap(named) ?? other
    }

    /// Scenarios outside the built-in suite's families.
    public static let other = BehaviourFamily(
        id: "other-scenarios",
        title: "Other scenarios",
        summary: "Scenarios that belong to none of the families above."
    )

    /// The families in column order.
    public static let all: [BehaviourFamily] = [
        BehaviourFamily(
            id: "proactive-refresh",
            title: "Proactive refresh",
            summary:
                "Refreshes an access token shortly before it expires, inside the declared window, about once per lifetime, and keeps the valid token when that refresh fails."
        ),
        BehaviourFamily(
            id: "401-handling",
            title: "401 handling",
            summary:
                "A 401 on a token that should be valid leads to one refresh and one replay with the new token, never to a loop, and not to a refresh for a 403 or a failed refresh."
        ),
        BehaviourFamily(
            id: "single-flight",
            title: "Single-flight",
            summary:
                "Concurrent calls that need a new token share one token request, and all of them get its outcome.",
            timelinesVaryBetweenRuns: true
        ),
        BehaviourFamily(
            id: "refresh-token-retention-and-rotation",
            title: "Refresh token retention and rotation",
            summary:
                "Keeps its refresh token when a refresh response omits it, presents the rotated one it got last (after a restart too), and drops one the provider refused."
        ),
        BehaviourFamily(
            id: "expires_in-handling",
            title: "expires_in handling",
            summary:
                "Reads expires_in relative to receipt: a missing, odd or string value, or a provider clock that disagrees, neither breaks the client nor makes it refresh in a loop."
        ),
        BehaviourFamily(
            id: "error-mapping",
            title: "Error mapping",
            summary:
                "Token endpoint errors, server errors, broken connections and malformed token responses are reported with the right category and RFC 6749 §5.2 code, and leave the tokens in a sound state."
        ),
        BehaviourFamily(
            id: "retry-after",
            title: "Retry-After",
            summary: "After a 429 or 503 with Retry-After, no token request goes out before the time it names."
        ),
        BehaviourFamily(
            id: "redirects-and-secrets",
            title: "Redirects and secrets",
            summary:
                "Client secret, password, grant and tokens go only where they belong: not to another origin after a redirect, not into URLs or error messages, refresh tokens never to the resource."
        ),
        BehaviourFamily(
            id: "client-assertions",
            title: "Client assertions",
            summary:
                "Authenticates with private_key_jwt assertions signed by its registered key, or client_secret_jwt assertions MACed with its secret: the secret never sent, a new jti for every request, retries included, dated by the clock it is given."
        ),
        BehaviourFamily(
            id: "device-authorization-polling",
            title: "Device authorization polling",
            summary:
                "Polls for a device authorization no sooner than the interval, 5 s longer after each slow_down, backs off after a failed poll, and stops at a denial or an expired code."
        ),
        BehaviourFamily(
            id: "dpop",
            title: "DPoP",
            summary:
                "Proves possession of its key with a new DPoP proof for every request, presents bound tokens with the DPoP scheme, meets a server's nonce with one retry and uses the nonce it was given last, and refreshes a bound refresh token with the same key.",
            // Proofs carry random jtis, shown in the timelines.
            timelinesVaryBetweenRuns: true
        ),
        BehaviourFamily(
            id: "pushed-authorization-requests",
            title: "Pushed authorization requests",
            summary:
                "Pushes each authorization request where the provider requires it, opens only the one-time request_uri, and never falls back to the browser when a push fails.",
            timelinesVaryBetweenRuns: true
        ),
        BehaviourFamily(
            id: "tls",
            title: "TLS",
            summary:
                "Refuses untrusted, expired, wrong-host and (when it pins) wrong-key certificates before sending a credential, accepts the one its CA signed, and sends no token over a redirect to plain HTTP.",
            timelinesVaryBetweenRuns: true
        ),
        BehaviourFamily(
            id: "authorization-code-flow",
            title: "Authorization code flow",
            summary:
                "Sends PKCE S256 and an unguessable state, refuses an authorization response with the wrong state or issuer without redeeming its code, and surfaces a denied consent.",
            timelinesVaryBetweenRuns: true
        ),
        BehaviourFamily(
            id: "id-token-validation",
            title: "ID token validation",
            summary:
                "Sends a fresh nonce, trusts only a discovery document for its own issuer, and refuses an ID token with a wrong or missing claim, another key's signature, alg none or a confused algorithm, using nothing of that response.",
            timelinesVaryBetweenRuns: true
        ),
        BehaviourFamily(
            id: "oidc-keys-and-sessions",
            title: "OIDC keys and sessions",
            summary:
                "Caches the provider's JWKS, fetches it again once for a new key and no more for unknown ones, and never lets a refresh or a userinfo answer switch the signed-in user.",
            timelinesVaryBetweenRuns: true
        ),
        BehaviourFamily(
            id: "mcp-authorization",
            title: "MCP authorization",
            summary:
                "Starts from the MCP server's 401, finds its Protected Resource Metadata and its authorization server's metadata in the order the MCP spec gives, refuses a document about another resource or issuer and an authorization server without S256, and names the server as resource in its authorization and token requests.",
            timelinesVaryBetweenRuns: true
        ),
        BehaviourFamily(
            id: "sign-in-exchanged-at-the-app-server",
            title: "Sign-in exchanged at the app server",
            summary:
                "Trades only an accepted ID token at the app's own server, tells its refusals from the provider's, refreshes the app's tokens there, and trades a fresh ID token, never an expired one, when it must start again.",
            timelinesVaryBetweenRuns: true
        ),
    ]
}
