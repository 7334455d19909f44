import DequeModule
import Synchronization

/// The identifiers a server has seen, to refuse one presented twice: a client assertion's or a DPoP
/// proof's `jti`. Bounded like the token ledger: past `capacity` the oldest are forgotten.
final class SeenIdentifiers: Sendable {
    private let capacity: Int
    private let seen = Mutex<(set: Set<String>, order: Deque<String>)>(([], []))

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Records the identifier; `false` when it was seen already.
    func firstSighting(_ identifier: String) -> Bool {
        seen.withLock { seen in
            guard seen.set.insert(identifier).inserted else { return false }
            seen.order.append(identifier)
            if seen.order.count > capacity, let oldest = seen.order.popFirst() { seen.set.remove(oldest) }
            return true
        }
    }
}
