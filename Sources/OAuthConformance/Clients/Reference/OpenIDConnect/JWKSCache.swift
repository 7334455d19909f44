import Foundation
import JWTKit
import MockProvider

/// The provider's signing keys (its JWKS, OIDC Core §10.1.1), fetched through a closure the client
/// gives, so the cache knows nothing of HTTP: the reference client plugs in AsyncHTTPClient, tests
/// a function. The JWKS is fetched for the first token and then reused (KD-06); a token naming a
/// key the cache does not hold causes one more fetch for that token (KD-01), and such refetches
/// are at least `Policy.minimumRefetchInterval` apart, so unknown keys cannot make the client
/// hammer the endpoint (KD-02).
public actor JWKSCache {
    /// The body of the JWKS URI's answer; throws when there is none (a transport error, a non-200).
    public typealias Fetch = @Sendable () async throws -> String

    /// Set from `OpenIDConnectBehaviour.keySetPolicy`, where each knob is documented.
    public struct Policy: Sendable, Equatable {
        public var refetchesForUnknownKeyID: Bool
        public var fetchesForEveryToken: Bool
        public var minimumRefetchInterval: Duration

        public init(refetchesForUnknownKeyID: Bool, fetchesForEveryToken: Bool, minimumRefetchInterval: Duration) {
            self.refetchesForUnknownKeyID = refetchesForUnknownKeyID
            self.fetchesForEveryToken = fetchesForEveryToken
            self.minimumRefetchInterval = minimumRefetchInterval
        }
    }

    /// What looking a key up found; `IDTokenSignatureCheck` turns the misses into refusals.
    enum Lookup: Sendable {
        case found(JWK)
        case unknownKeyID(fetchedForThisToken: Bool)
        /// The `kid` is there, but not as a key for the algorithm.
        case notUsable
        case noSuitableKey(fetchedForThisToken: Bool)
        case severalSuitableKeys(Int)
        case unavailable(String)
    }

    private let policy: Policy
    private let now: @Sendable () -> Date
    private let fetch: Fetch
    private var keys: [JWK]?
    /// When a key the cache did not hold last caused a fetch.
    private var lastRefetch: Date?
    /// Concurrent sign-ins share one fetch rather than each starting its own.
    private var fetchInFlight: Task<Result<[JWK], FetchFailure>, Never>?

    /// Every fetch of the JWKS URI, failed ones included.
    public private(set) var fetchCount = 0

    public init(
        policy: Policy = OpenIDConnectBehaviour.conforming.keySetPolicy,
        now: @escaping @Sendable () -> Date,
        fetch: @escaping Fetch
    ) {
        self.policy = policy
        self.now = now
        self.fetch = fetch
    }

    /// The `kid` of every key held, in the JWKS's order.
    public var keyIDs: [String] {
        (keys ?? []).compactMap { $0.keyIdentifier?.string }
    }

    /// The key for one token: the one its `kid` names, or, without a `kid`, the single key
    /// `suitable` accepts (OIDC Core §10.1: with several, the token must say which).
    func key(id kid: String?, where suitable: @Sendable (JWK) -> Bool) async -> Lookup {
        var fetchedForThisToken = false
        if keys == nil || policy.fetchesForEveryToken {
            if case .failure(let failure) = await refresh() { return .unavailable(failure.detail) }
            fetchedForThisToken = true
        }
        let first = select(id: kid, where: suitable)
        switch first {
        case .unknownKeyID, .noSuitableKey: break
        default: return first
        }
        if !fetchedForThisToken {
            guard policy.refetchesForUnknownKeyID, refetchIsDue() else { return first }
            lastRefetch = now()
            // A failed refetch keeps the keys held, and the token is refused for the key it named.
            _ = await refresh()
        }
        return switch select(id: kid, where: suitable) {
        case .unknownKeyID: .unknownKeyID(fetchedForThisToken: true)
        case .noSuitableKey: .noSuitableKey(fetchedForThisToken: true)
        case let other: other
        }
    }

    private func refetchIsDue() -> Bool {
        guard let lastRefetch else { return true }
        return now().timeIntervalSince(lastRefetch) >= TimeInterval(policy.minimumRefetchInterval.components.seconds)
    }

    private func select(id kid: String?, where suitable: (JWK) -> Bool) -> Lookup {
        let held = keys ?? []
        guard let kid else {
            let candidates = held.filter(suitable)
            switch candidates.count {
            case 0: return .noSuitableKey(fetchedForThisToken: false)
            case 1: return .found(candidates[0])
            default: return .severalSuitableKeys(candidates.count)
            }
        }
        let named = held.filter { $0.keyIdentifier?.string == kid }
        guard !named.isEmpty else { return .unknownKeyID(fetchedForThisToken: false) }
        // RFC 7517 §4.5 allows one kid for keys of different types; the right type is taken.
        return named.first(where: suitable).map { .found($0) } ?? .notUsable
    }

    /// Why a fetch gave no keys, in words for the refusal.
    struct FetchFailure: Error, Sendable {
        let detail: String
    }

    private func refresh() async -> Result<[JWK], FetchFailure> {
        if let fetchInFlight { return await fetchInFlight.value }
        let task = Task { await fetchAndStore() }
        fetchInFlight = task
        let result = await task.value
        fetchInFlight = nil
        return result
    }

    /// The keys are stored before any waiter resumes, so each sees the set the fetch brought.
    private func fetchAndStore() async -> Result<[JWK], FetchFailure> {
        fetchCount += 1
        let result: Result<[JWK], FetchFailure>
        do {
            result = Self.parse(try await fetch())
        } catch {
            result = .failure(FetchFailure(detail: "the JWKS URI could not be fetched (\(error))"))
        }
        if case .success(let fetched) = result { keys = fetched }
        return result
    }

    /// RFC 7517 §5: keys whose type or members the client does not understand are skipped, not the
    /// whole set; a key meant for encryption (`use: enc`, §4.2) never verifies a signature.
    static func parse(_ body: String) -> Result<[JWK], FetchFailure> {
        guard case .array(let members)? = JSONValue.parse(body)?["keys"] else {
            return .failure(FetchFailure(detail: "the JWKS is not a JSON object with a keys array (RFC 7517 §5)"))
        }
        let keys = members.compactMap { member -> JWK? in
            guard case .object = member, member["use"]?.stringValue ?? "sig" == "sig" else { return nil }
            return try? JWK(json: member.serialized())
        }
        return .success(keys)
    }
}
