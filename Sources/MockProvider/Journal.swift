import DequeModule
import Synchronization

/// One request the provider received and what it answered, stamped with virtual time.
public struct JournalEntry: Sendable, Equatable {
    /// 1-based position in the journal.
    public var sequence: Int
    /// Virtual time since the scenario started.
    public var at: Duration
    public var request: ProviderRequest
    public var response: ProviderResponse
    public var endpoint: Endpoint?
    /// The `grant_type` of a token request.
    public var grant: GrantType?
    /// The index of the rule that changed the response, if one did.
    public var appliedRule: Int?
    /// How the answer travelled; anything but `.immediate` means the client may never have seen it.
    public var delivery: Delivery = .immediate
}

/// Every request and response, in arrival order. Bounded, so a long-running provider cannot
/// grow without limit: past `capacity` the oldest entries are dropped and counted.
public final class Journal: Sendable {
    public let capacity: Int
    private let state = Mutex<(entries: Deque<JournalEntry>, dropped: Int, next: Int)>(([], 0, 1))

    public init(capacity: Int = 100_000) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    public var entries: [JournalEntry] { state.withLock { Array($0.entries) } }
    public var droppedCount: Int { state.withLock { $0.dropped } }
    /// The sequence number of the latest entry; 0 before the first.
    public var lastSequence: Int { state.withLock { $0.next - 1 } }

    func record(_ make: (_ sequence: Int) -> JournalEntry) {
        state.withLock { state in
            state.entries.append(make(state.next))
            state.next += 1
            let overflow = state.entries.count - capacity
            if overflow > 0 {
                state.entries.removeFirst(overflow)
                state.dropped += overflow
            }
        }
    }
}
