import Synchronization

/// A token the provider issued, with its lifetime on the virtual clock.
public struct IssuedToken: Sendable, Equatable {
    public enum Kind: String, Sendable { case access = "access_token", refresh = "refresh_token" }

    public var kind: Kind
    public var value: String
    /// 1-based among tokens of the same kind: `access_token#2` in a scenario.
    public var ordinal: Int
    public var issuedAt: Duration
    /// `nil`: the token does not expire.
    public var expiresAt: Duration?
    public var subject: String
    /// Refresh tokens descending from one grant form a family; reuse of a superseded member revokes it.
    public var family: Int

    public init(kind: Kind, value: String, ordinal: Int, issuedAt: Duration, expiresAt: Duration?, subject: String, family: Int) {
        self.kind = kind
        self.value = value
        self.ordinal = ordinal
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.subject = subject
        self.family = family
    }

    public func isExpired(at instant: Duration) -> Bool {
        expiresAt.map { instant >= $0 } ?? false
    }
}

/// The provider's record of issued tokens: issuing, refreshing, validating, rotating.
final class TokenLedger: Sendable {
    struct Grant {
        let access: IssuedToken
        let refresh: IssuedToken?
    }

    private struct State {
        var tokens: [IssuedToken] = []
        var superseded: Set<String> = []
        var revokedFamilies: Set<Int> = []
        var nextFamily = 1

        /// The token, if it was issued here, has not expired and its family stands.
        func liveToken(_ kind: IssuedToken.Kind, _ value: String, at now: Duration) -> IssuedToken? {
            guard let token = tokens.first(where: { $0.kind == kind && $0.value == value }),
                  !token.isExpired(at: now), !revokedFamilies.contains(token.family)
            else { return nil }
            return token
        }
    }

    private let policy: TokenPolicy
    private let state = Mutex(State())

    init(policy: TokenPolicy) {
        self.policy = policy
    }

    var issued: [IssuedToken] { state.withLock { $0.tokens } }

    func grant(subject: String, withRefreshToken: Bool, at now: Duration) -> Grant {
        state.withLock { state in
            let family = state.nextFamily
            state.nextFamily += 1
            let access = Self.mint(.access, subject: subject, family: family, at: now, lifetime: policy.accessLifetime, in: &state)
            let refresh = withRefreshToken
                ? Self.mint(.refresh, subject: subject, family: family, at: now, lifetime: policy.refreshLifetime, in: &state)
                : nil
            return Grant(access: access, refresh: refresh)
        }
    }

    /// RFC 6749 §6. Returns the new access token and the refresh token to hand back: a new one
    /// under rotation, otherwise the one presented.
    func refresh(with presented: String, at now: Duration) -> Grant? {
        state.withLock { state in
            guard let current = state.liveToken(.refresh, presented, at: now) else { return nil }
            if state.superseded.contains(presented) {
                // RFC 9700 §4.14.2: a superseded refresh token in use means it leaked; end the family.
                state.revokedFamilies.insert(current.family)
                return nil
            }
            let access = Self.mint(.access, subject: current.subject, family: current.family, at: now, lifetime: policy.accessLifetime, in: &state)
            guard policy.rotateRefreshTokens else { return Grant(access: access, refresh: current) }
            state.superseded.insert(presented)
            let successor = Self.mint(.refresh, subject: current.subject, family: current.family, at: now, lifetime: policy.refreshLifetime, in: &state)
            return Grant(access: access, refresh: successor)
        }
    }

    /// The access token, if it was issued here, has not expired and its family stands.
    func validAccessToken(_ value: String, at now: Duration) -> IssuedToken? {
        state.withLock { $0.liveToken(.access, value, at: now) }
    }

    private static func mint(
        _ kind: IssuedToken.Kind, subject: String, family: Int, at now: Duration, lifetime: Duration?, in state: inout State
    ) -> IssuedToken {
        let ordinal = state.tokens.count { $0.kind == kind } + 1
        let prefix = kind == .access ? "at" : "rt"
        let token = IssuedToken(
            kind: kind, value: "\(prefix)-\(ordinal)", ordinal: ordinal,
            issuedAt: now, expiresAt: lifetime.map { now + $0 }, subject: subject, family: family
        )
        state.tokens.append(token)
        return token
    }
}
