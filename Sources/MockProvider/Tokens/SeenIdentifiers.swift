import DequeModule
import Synchronization

/// The identifiers a server has seen, to refuse one presented twice: a client assertion's or a DPoP
/// proof's `jti`. Bounded like the token ledger: past `capacity` the oldest are forgotten; and an
/// identifier is at most `longest` bytes, so the record stays within `capacity` × 256 bytes.
final class SeenIdentifiers: Sendable {
    /// The longest identifier taken: a UUID is 36 bytes, and a `jti` of a megabyte is an attack.
    static let longest = 256
    /// Why an identifier is not taken; the verifiers name the claim.
    static let expected = "1 to \(longest) bytes"

    private let capacity: Int
    private let seen = Mutex<(set: Set<String>, order: Deque<String>)>(([], []))

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Whether the identifier may be recorded at all.
    static func isAcceptable(_ identifier: String) -> Bool {
        (1...longest).contains(identifier.utf8.count)
    }

    /// Records the identifier; `false` when it was seen already. Callers check `isAcceptable` first.
    func firstSighting(_ identifier: String) -> Bool {
        seen.withLock { seen in
            guard seen.set.insert(identifier).inserted else { return false }
            seen.order.append(identifier)
            if seen.order.count > capacity, let oldest = seen.order.popFirst() { seen.set.remove(oldest) }
            return true
        }
    }
}
