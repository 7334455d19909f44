/// How a client classifies what went wrong, so checks can tell errors apart.
public enum ErrorCategory: String, Sendable, Hashable, CaseIterable {
    /// The user must sign in again: no tokens, or the grant is dead (`invalid_grant`).
    case authorizationRequired = "authorization_required"
    /// The provider rejected the client's own credentials (`invalid_client`).
    case invalidClient = "invalid_client"
    /// Any other RFC 6749 §5.2 error response.
    case oauthError = "oauth_error"
    /// A failure worth retrying later: 5xx, 429, a dropped connection, a timeout.
    case transient
    /// The provider answered something the protocol does not allow, or an authorization
    /// response failed the client's checks (`state`, `iss`).
    case protocolViolation = "protocol"
    /// The TLS handshake failed: the certificate was not trusted.
    case tls
    /// The client does not implement the operation.
    case unsupported
    /// The client refused the ID token of a sign-in or refresh (OIDC Core §3.1.3.7, §12.2): a bad
    /// signature, issuer, audience, nonce, expiry, … The message names the rule.
    case idToken = "id_token"
    /// The client refused a userinfo response (OIDC Core §5.3.2): another user's `sub`, or no claims.
    case userinfo
    /// The app's own server refused leg 2 of a third-party sign-in (`invalid_grant`,
    /// `invalid_client`, …): the sign-in with the provider stands; the app's session did not start.
    case exchangeRefused = "exchange_refused"
    /// The library failed in a way it does not document as an outcome: an exception from deep
    /// inside it (an `AttributeError`, a nil dereference, an assertion). A crash, never a refusal.
    case unexpected

    /// Whether an error of this category is the client refusing what it was given (a token, a
    /// response, a grant), as a step that expects "an error" means: a crash is not a refusal, and
    /// neither is an operation the client does not implement.
    public var isRefusal: Bool { self != .unexpected && self != .unsupported }

    /// The one table from an RFC 6749 §5.2 (or §4.1.2.1, or RFC 8628 §3.5) error code to what the
    /// application must do about it: sign the user in again for a dead grant, a denial or an
    /// expired device code, fix the client's own credentials for `invalid_client`, otherwise read
    /// the code. `SurfacedError` applies it, with the status, to what a client surfaced.
    public init(oauthError code: String) {
        self =
            switch code {
            case "invalid_grant", "access_denied", "expired_token": .authorizationRequired
            case "invalid_client": .invalidClient
            default: .oauthError
            }
    }
}
