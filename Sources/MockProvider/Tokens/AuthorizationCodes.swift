import Synchronization

/// A code issued at the authorization endpoint, with what its redemption must match.
struct AuthorizationCode: Sendable {
    var value: String
    var clientID: String
    var redirectURI: String?
    var challenge: String?
    var challengeMethod: CodeChallengeMethod?
    var subject: String
    var issuedAt: Duration
    /// The authorization request's `scope`, which the tokens it buys are granted (RFC 6749 §3.3:
    /// this provider's user consents to whatever is asked); `nil` when none was asked for.
    var scope: String?
    /// Set when the request's scope held `openid`: the code buys an ID token too.
    var openID: OpenIDRequest?
    /// Set on first redemption: the family of the tokens it bought.
    var redeemedFamily: Int?
}

/// What an OpenID Connect authentication request (scope `openid`) asked for beyond OAuth.
struct OpenIDRequest: Sendable {
    /// OpenID Connect Core §3.1.2.1: echoed in the ID token, so the client can tie it to its request.
    var nonce: String?
}

/// Authorization codes: short-lived, single-use (RFC 6749 §4.1.2).
final class AuthorizationCodes: Sendable {
    /// RFC 6749 §4.1.2: "A maximum authorization code lifetime of 10 minutes is RECOMMENDED."
    static let lifetime = Duration.seconds(600)

    enum Redemption {
        case fresh(AuthorizationCode)
        /// Redeemed before: the tokens of the first redemption should be revoked.
        case replayed(family: Int)
        case unknownOrExpired
    }

    private let codes = Mutex<[String: AuthorizationCode]>([:])
    private let counter = Mutex(0)

    func issue(
        clientID: String,
        redirectURI: String?,
        challenge: String?,
        method: CodeChallengeMethod?,
        subject: String,
        scope: String? = nil,
        openID: OpenIDRequest?,
        at now: Duration
    ) -> String {
        let ordinal = counter.withLock { value in
            value += 1
            return value
        }
        let code = AuthorizationCode(
            value: "code-\(ordinal)",
            clientID: clientID,
            redirectURI: redirectURI,
            challenge: challenge,
            challengeMethod: method,
            subject: subject,
            issuedAt: now,
            scope: scope,
            openID: openID
        )
        codes.withLock { $0[code.value] = code }
        return code.value
    }

    func redeem(_ value: String, at now: Duration) -> Redemption {
        codes.withLock { codes in
            guard let code = codes[value], now - code.issuedAt < Self.lifetime else { return .unknownOrExpired }
            if let family = code.redeemedFamily { return .replayed(family: family) }
            return .fresh(code)
        }
    }

    func markRedeemed(_ value: String, family: Int) {
        codes.withLock { $0[value]?.redeemedFamily = family }
    }
}
