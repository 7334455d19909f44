import DequeModule
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

/// The provider's record of issued tokens: issuing, refreshing, validating, rotating. Bounded,
/// like the journal, so a long-running provider cannot grow without limit: past `capacity` the
/// oldest tokens are forgotten, and a client presenting one is told it is invalid.
final class TokenLedger: Sendable {
    struct Grant {
        let access: IssuedToken
        let refresh: IssuedToken?
    }

    private struct State {
        var tokens: Deque<IssuedToken> = []
        /// How many of the oldest tokens were forgotten to stay within capacity.
        var forgotten = 0
        /// Position among all tokens ever issued, by value: lookups stay constant-time however many were issued.
        var positions: [String: Int] = [:]
        var issuedCount: [IssuedToken.Kind: Int] = [:]
        var superseded: Set<String> = []
        var revokedFamilies: Set<Int> = []
        var nextFamily = 1

        var revokedTokens: Set<String> = []

        func token(_ value: String) -> IssuedToken? {
            positions[value].map { tokens[$0 - forgotten] }
        }

        mutating func remember(_ token: IssuedToken, capacity: Int) {
            positions[token.value] = forgotten + tokens.count
            tokens.append(token)
            guard tokens.count > capacity, let oldest = tokens.popFirst() else { return }
            forgotten += 1
            positions[oldest.value] = nil
            // Both are usually empty; removing from an empty set still hashes the value.
            if !superseded.isEmpty { superseded.remove(oldest.value) }
            if !revokedTokens.isEmpty { revokedTokens.remove(oldest.value) }
        }

        /// The token, if it was issued here, has not expired and was not revoked.
        func liveToken(_ kind: IssuedToken.Kind, _ value: String, at now: Duration, revokeAllAt: [Duration]) -> IssuedToken? {
            guard let token = token(value), token.kind == kind,
                  !token.isExpired(at: now), !revokedFamilies.contains(token.family), !revokedTokens.contains(value),
                  !revokeAllAt.contains(where: { token.issuedAt < $0 && now >= $0 })
            else { return nil }
            return token
        }
    }

    let capacity: Int
    private let policy: TokenPolicy
    private let state = Mutex(State())

    init(policy: TokenPolicy, capacity: Int = 100_000) {
        precondition(capacity > 0)
        self.policy = policy
        self.capacity = capacity
    }

    /// The tokens remembered, oldest first.
    var issued: [IssuedToken] { state.withLock { Array($0.tokens) } }

    func grant(subject: String, withRefreshToken: Bool, at now: Duration) -> Grant {
        state.withLock { state in
            let family = state.nextFamily
            state.nextFamily += 1
            let access = mint(.access, subject: subject, family: family, at: now, lifetime: policy.accessLifetime, in: &state)
            let refresh = withRefreshToken
                ? mint(.refresh, subject: subject, family: family, at: now, lifetime: policy.refreshLifetime, in: &state)
                : nil
            return Grant(access: access, refresh: refresh)
        }
    }

    /// RFC 6749 §6. Returns the new access token and the refresh token to hand back: a new one
    /// under rotation, otherwise the one presented.
    func refresh(with presented: String, at now: Duration) -> Grant? {
        state.withLock { state in
            guard let current = state.liveToken(.refresh, presented, at: now, revokeAllAt: policy.revokeAllAt) else { return nil }
            if state.superseded.contains(presented) {
                // RFC 9700 §4.14.2: a superseded refresh token in use means it leaked; end the family.
                state.revokedFamilies.insert(current.family)
                return nil
            }
            let access = mint(.access, subject: current.subject, family: current.family, at: now, lifetime: policy.accessLifetime, in: &state)
            guard policy.rotateRefreshTokens else { return Grant(access: access, refresh: current) }
            state.superseded.insert(presented)
            let successor = mint(.refresh, subject: current.subject, family: current.family, at: now, lifetime: policy.refreshLifetime, in: &state)
            return Grant(access: access, refresh: successor)
        }
    }

    /// The access token, if it was issued here, has not expired and its family stands.
    func validAccessToken(_ value: String, at now: Duration) -> IssuedToken? {
        state.withLock { $0.liveToken(.access, value, at: now, revokeAllAt: policy.revokeAllAt) }
    }

    /// A live token of either kind, for introspection.
    func liveToken(_ value: String, at now: Duration) -> IssuedToken? {
        state.withLock { state in
            state.liveToken(.access, value, at: now, revokeAllAt: policy.revokeAllAt)
                ?? state.liveToken(.refresh, value, at: now, revokeAllAt: policy.revokeAllAt)
        }
    }

    /// RFC 7009 §2.1: revoking a refresh token revokes its family (the access tokens it granted
    /// included); revoking an access token revokes that token. Unknown tokens are ignored.
    func revoke(_ value: String) {
        state.withLock { state in
            guard let token = state.token(value) else { return }
            if token.kind == .refresh {
                state.revokedFamilies.insert(token.family)
            } else {
                state.revokedTokens.insert(value)
            }
        }
    }

    /// Revokes every token descending from one grant: a replayed authorization code's tokens.
    func revokeFamily(_ family: Int) {
        _ = state.withLock { $0.revokedFamilies.insert(family) }
    }

    private func mint(
        _ kind: IssuedToken.Kind, subject: String, family: Int, at now: Duration, lifetime: Duration?, in state: inout State
    ) -> IssuedToken {
        let ordinal = state.issuedCount[kind, default: 0] + 1
        state.issuedCount[kind] = ordinal
        let prefix = kind == .access ? "at" : "rt"
        let token = IssuedToken(
            kind: kind, value: "\(prefix)-\(ordinal)", ordinal: ordinal,
            issuedAt: now, expiresAt: lifetime.map { now + $0 }, subject: subject, family: family
        )
        state.remember(token, capacity: capacity)
        return token
    }
}
