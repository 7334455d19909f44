import DequeModule
import Synchronization

/// An ID token the provider issued, as it went out (altered, when a rule altered it).
public struct IssuedIDToken: Sendable, Equatable {
    /// 1-based in issue order: `id_token#2` is the second ID token, whichever response carried it.
    public var ordinal: Int
    /// The compact JWS.
    public var value: String
    public var header: JSONValue
    public var claims: JSONValue
    /// What made the signature, for transcripts: `rsa-1 (RS256)`, `none`, `HS256 with the client secret`.
    public var signedWith: String
    /// The access token of the same token response, e.g. `at-3`.
    public var accessToken: String
    public var issuedAt: Duration
    /// Until when a verifier that knows this provider (its issuer, keys and the client's id)
    /// accepts it; `nil` when a rule altered it, so that no such verifier does.
    public var validUntil: Duration?

    public init(
        ordinal: Int,
        value: String,
        header: JSONValue,
        claims: JSONValue,
        signedWith: String,
        accessToken: String,
        issuedAt: Duration,
        validUntil: Duration? = nil
    ) {
        self.ordinal = ordinal
        self.value = value
        self.header = header
        self.claims = claims
        self.signedWith = signedWith
        self.accessToken = accessToken
        self.issuedAt = issuedAt
        self.validUntil = validUntil
    }
}

/// What an OpenID Connect sign-in established, kept for the ID tokens of its later refreshes
/// (OpenID Connect Core §12.2: same `sub`, same `auth_time`).
struct OpenIDSession: Sendable {
    var subject: String
    /// The authorization request's `nonce`, echoed in the ID token of the code exchange only.
    var nonce: String?
    var authTime: Duration
}

/// The ID tokens issued and the sign-ins they belong to, keyed by token family (one grant and its
/// refreshes). Bounded like the token ledger.
final class IDTokenLedger: Sendable {
    private struct State {
        var sessions: [Int: OpenIDSession] = [:]
        var sessionOrder: Deque<Int> = []
        var issued: Deque<IssuedIDToken> = []
        var count = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 100_000) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    /// The ID tokens remembered, oldest first.
    /// In ordinal order: tokens are built outside the lock, so two may be recorded out of order.
    var issued: [IssuedIDToken] { state.withLock { Array($0.issued) }.sorted { $0.ordinal < $1.ordinal } }

    /// How many ID tokens were ever issued, forgotten ones included.
    var count: Int { state.withLock { $0.count } }

    /// The remembered ID token with this compact serialization.
    func issued(value: String) -> IssuedIDToken? {
        state.withLock { $0.issued.last { $0.value == value } }
    }

    func beginSession(_ session: OpenIDSession, family: Int) {
        state.withLock { state in
            state.sessions[family] = session
            state.sessionOrder.append(family)
            if state.sessionOrder.count > capacity, let oldest = state.sessionOrder.popFirst() {
                state.sessions[oldest] = nil
            }
        }
    }

    func session(family: Int) -> OpenIDSession? {
        state.withLock { $0.sessions[family] }
    }

    /// Issues the next ID token: `make` gets its ordinal, which decides any key rotation that
    /// depends on it, and builds it. The signing happens outside the lock, so concurrent token
    /// responses on the event loops do not queue behind one another's signatures.
    func record(_ make: (_ ordinal: Int) -> IssuedIDToken) -> IssuedIDToken {
        let ordinal = state.withLock { state in
            state.count += 1
            return state.count
        }
        let token = make(ordinal)
        state.withLock { state in
            state.issued.append(token)
            if state.issued.count > capacity { state.issued.removeFirst() }
        }
        return token
    }
}
