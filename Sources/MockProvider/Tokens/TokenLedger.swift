import DequeModule
import Synchronization

/// A token the provider issued, with its lifetime on the virtual clock.
public struct IssuedToken: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case access = "access_token"
        case refresh = "refresh_token"
    }

    /// Which server issued it, and so which accepts it.
    public enum Server: String, Sendable {
        case provider
        /// The app server on the other origin (Endpoint.appToken): its own tokens, for its own resource.
        case appServer = "app_server"
        /// The provider's second authorization server (`AuthorizationServerID.second`), which an MCP
        /// server can move to: its tokens are good at the MCP server only once it has.
        case secondAuthorizationServer = "second_authorization_server"

        /// How scenarios and reports name its tokens before the kind: `app_access_token#1`,
        /// `as2_refresh_token#1`; nothing for the provider's.
        public var labelPrefix: String {
            switch self {
            case .provider: ""
            case .appServer: "app_"
            case .secondAuthorizationServer: "as2_"
            }
        }

        /// Its tokens' values begin so (`as2-at-3`), so a token presented to another server is
        /// simply unknown there.
        var valuePrefix: String {
            switch self {
            case .provider: ""
            case .appServer: "app-"
            case .secondAuthorizationServer: "as2-"
            }
        }
    }

    public var kind: Kind
    /// The provider's tokens are `access_token#N`; the app server's, `app_access_token#N`.
    public var server: Server
    public var value: String
    /// 1-based among tokens of the same kind: `access_token#2` in a scenario.
    public var ordinal: Int
    public var issuedAt: Duration
    /// `nil`: the token does not expire.
    public var expiresAt: Duration?
    public var subject: String
    /// Refresh tokens descending from one grant form a family; reuse of a superseded member revokes it.
    public var family: Int
    /// The RFC 7638 thumbprint of the DPoP key the token is bound to (RFC 9449 §6, `cnf.jkt`);
    /// `nil`: a bearer token.
    public var boundKey: String?
    /// The scope the token was granted (RFC 6749 §3.3), space-separated: its authorization
    /// request's, kept by every refresh (§6); `nil`: none was asked for.
    public var scope: String?

    /// The `token_type` the token is issued with: `DPoP` when bound to a key (RFC 9449 §5), else `Bearer`.
    public var tokenType: String { boundKey == nil ? "Bearer" : "DPoP" }

    public init(
        kind: Kind,
        server: Server = .provider,
        value: String,
        ordinal: Int,
        issuedAt: Duration,
        expiresAt: Duration?,
        subject: String,
        family: Int,
        boundKey: String? = nil,
        scope: String? = nil
    ) {
        self.boundKey = boundKey
        self.scope = scope
        self.kind = kind
        self.server = server
        self.value = value
        self.ordinal = ordinal
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.subject = subject
        self.family = family
    }

    /// How scenarios and reports name it: `access_token#2`, `app_refresh_token#1`.
    public var label: String { Self.labelPrefix(kind, server) + String(ordinal) }

    /// `access_token#`, `app_refresh_token#`.
    public static func labelPrefix(_ kind: Kind, _ server: Server) -> String {
        server.labelPrefix + kind.rawValue + "#"
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

    /// Where each remembered token of one kind stands among all tokens ever issued, by ordinal.
    /// The ledger issues `at-N` and `rt-N`, so a lookup reads N off the value and indexes, with
    /// no hashing of the value and no table as large as the capacity.
    private struct OrdinalIndex {
        /// The ordinal of the oldest remembered token of this kind.
        var firstOrdinal = 1
        var positions: Deque<Int> = []

        var nextOrdinal: Int { firstOrdinal + positions.count }

        func position(of ordinal: Int) -> Int? {
            let index = ordinal - firstOrdinal
            return positions.indices.contains(index) ? positions[index] : nil
        }

        mutating func forgetOldest() {
            positions.removeFirst()
            firstOrdinal += 1
        }
    }

    private struct State {
        var tokens: Deque<IssuedToken> = []
        /// How many of the oldest tokens were forgotten to stay within capacity.
        var forgotten = 0
        var access = OrdinalIndex()
        var refresh = OrdinalIndex()
        var superseded: Set<String> = []
        var revokedFamilies: Set<Int> = []
        var nextFamily = 1

        var revokedTokens: Set<String> = []
        /// The ledger's value prefixes, which tell its tokens from any other server's.
        let accessPrefix: String
        let refreshPrefix: String

        func token(_ value: String) -> IssuedToken? {
            guard
                let (kind, ordinal) = TokenLedger.kindAndOrdinal(
                    of: value,
                    accessPrefix: accessPrefix,
                    refreshPrefix: refreshPrefix
                ),
                let position = index(of: kind).position(of: ordinal)
            else { return nil }
            let token = tokens[position - forgotten]
            // "at-007" names no token, though its digits read 7.
            return token.value == value ? token : nil
        }

        func index(of kind: IssuedToken.Kind) -> OrdinalIndex {
            kind == .access ? access : refresh
        }

        /// In place: a copy of the index would make every append copy its positions.
        mutating func updateIndex(of kind: IssuedToken.Kind, _ update: (inout OrdinalIndex) -> Void) {
            switch kind {
            case .access: update(&access)
            case .refresh: update(&refresh)
            }
        }

        mutating func remember(_ token: IssuedToken, capacity: Int) {
            let position = forgotten + tokens.count
            updateIndex(of: token.kind) { $0.positions.append(position) }
            tokens.append(token)
            guard tokens.count > capacity, let oldest = tokens.popFirst() else { return }
            forgotten += 1
            updateIndex(of: oldest.kind) { $0.forgetOldest() }
            // Both are usually empty; removing from an empty set still hashes the value.
            if !superseded.isEmpty { superseded.remove(oldest.value) }
            if !revokedTokens.isEmpty { revokedTokens.remove(oldest.value) }
        }

        /// The token, if it was issued here, has not expired and was not revoked.
        func liveToken(
            _ kind: IssuedToken.Kind,
            _ value: String,
            at now: Duration,
            revokeAllAt: [Duration]
        ) -> IssuedToken? {
            guard let token = token(value), token.kind == kind,
                !token.isExpired(at: now), !revokedFamilies.contains(token.family), !revokedTokens.contains(value),
                !revokeAllAt.contains(where: { token.issuedAt < $0 && now >= $0 })
            else { return nil }
            return token.value == value ? token : nil
        }
    }

    let capacity: Int
    let server: IssuedToken.Server
    private let policy: TokenPolicy
    private let accessPrefix: String
    private let refreshPrefix: String
    private let state: Mutex<State>

    init(policy: TokenPolicy, capacity: Int = 100_000, server: IssuedToken.Server = .provider) {
        precondition(capacity > 0)
        self.policy = policy
        self.capacity = capacity
        self.server = server
        self.accessPrefix = server.valuePrefix + "at-"
        self.refreshPrefix = server.valuePrefix + "rt-"
        self.state = Mutex(State(accessPrefix: accessPrefix, refreshPrefix: refreshPrefix))
    }

    /// The tokens remembered, oldest first.
    var issued: [IssuedToken] { state.withLock { Array($0.tokens) } }

    /// - Parameter binding: the DPoP key the access token, and the refresh token when
    ///   `binding.refreshToo`, are bound to.
    func grant(
        subject: String,
        scope: String? = nil,
        withRefreshToken: Bool,
        at now: Duration,
        binding: DPoPBinding? = nil
    ) -> Grant {
        state.withLock { state in
            let family = state.nextFamily
            state.nextFamily += 1
            let access = mint(
                .access,
                subject: subject,
                family: family,
                at: now,
                lifetime: policy.accessLifetime,
                boundKey: binding?.key,
                scope: scope,
                in: &state
            )
            let refresh =
                withRefreshToken
                ? mint(
                    .refresh,
                    subject: subject,
                    family: family,
                    at: now,
                    lifetime: policy.refreshLifetime,
                    boundKey: binding?.refreshBoundKey,
                    scope: scope,
                    in: &state
                )
                : nil
            return Grant(access: access, refresh: refresh)
        }
    }

    /// RFC 6749 §6. Returns the new access token and the refresh token to hand back: a new one
    /// under rotation, otherwise the one presented.
    func refresh(with presented: String, at now: Duration, binding: DPoPBinding? = nil) -> Grant? {
        state.withLock { state in
            guard let current = state.liveToken(.refresh, presented, at: now, revokeAllAt: policy.revokeAllAt) else {
                return nil
            }
            if state.superseded.contains(presented) {
                // RFC 9700 §4.14.2: a superseded refresh token in use means it leaked; end the family.
                state.revokedFamilies.insert(current.family)
                return nil
            }
            let access = mint(
                .access,
                subject: current.subject,
                family: current.family,
                at: now,
                lifetime: policy.accessLifetime,
                boundKey: binding?.key,
                scope: current.scope,
                in: &state
            )
            guard policy.rotateRefreshTokens else { return Grant(access: access, refresh: current) }
            state.superseded.insert(presented)
            let successor = mint(
                .refresh,
                subject: current.subject,
                family: current.family,
                at: now,
                lifetime: policy.refreshLifetime,
                boundKey: binding?.refreshBoundKey,
                scope: current.scope,
                in: &state
            )
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
        _ kind: IssuedToken.Kind,
        subject: String,
        family: Int,
        at now: Duration,
        lifetime: Duration?,
        boundKey: String? = nil,
        scope: String? = nil,
        in state: inout State
    ) -> IssuedToken {
        let ordinal = state.index(of: kind).nextOrdinal
        let token = IssuedToken(
            kind: kind,
            server: server,
            value: "\(kind == .access ? accessPrefix : refreshPrefix)\(ordinal)",
            ordinal: ordinal,
            issuedAt: now,
            expiresAt: lifetime.map { now + $0 },
            subject: subject,
            family: family,
            boundKey: boundKey,
            scope: scope
        )
        state.remember(token, capacity: capacity)
        return token
    }

    /// `at-12` → (access, 12); `nil` for anything a ledger with these prefixes cannot have issued.
    static func kindAndOrdinal(
        of value: String,
        accessPrefix: String,
        refreshPrefix: String
    ) -> (IssuedToken.Kind, Int)? {
        var bytes = value.utf8[...]
        let kind: IssuedToken.Kind
        if bytes.starts(with: accessPrefix.utf8) {
            kind = .access
            bytes = bytes.dropFirst(accessPrefix.utf8.count)
        } else if bytes.starts(with: refreshPrefix.utf8) {
            kind = .refresh
            bytes = bytes.dropFirst(refreshPrefix.utf8.count)
        } else {
            return nil
        }
        // Eighteen digits cannot overflow an Int; no ledger issues that many tokens.
        guard (1...18).contains(bytes.count) else { return nil }
        var ordinal = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            ordinal = ordinal * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return (kind, ordinal)
    }
}
