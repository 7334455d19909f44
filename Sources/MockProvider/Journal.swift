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

/// Every request and response, in arrival order. Bounded in entries and in bytes, so a long-running
/// provider cannot grow without limit however large the requests it is sent: past either bound the
/// oldest entries are dropped and counted.
public final class Journal: Sendable {
    /// 64 MiB: every request of a scenario run many times over, and 64 requests at the largest body
    /// the server takes (1 MiB).
    public static let defaultByteBudget = 64 << 20

    public let capacity: Int
    public let byteBudget: Int
    private let state: Mutex<(entries: BoundedQueue<JournalEntry>, dropped: Int, next: Int)>

    public init(capacity: Int = 100_000, byteBudget: Int = Journal.defaultByteBudget) {
        precondition(capacity > 0 && byteBudget > 0)
        self.capacity = capacity
        self.byteBudget = byteBudget
        self.state = Mutex((BoundedQueue(capacity: capacity, byteBudget: byteBudget), 0, 1))
    }

    public var entries: [JournalEntry] { state.withLock { Array($0.entries.elements) } }
    public var droppedCount: Int { state.withLock { $0.dropped } }
    /// The sequence number of the latest entry; 0 before the first.
    public var lastSequence: Int { state.withLock { $0.next - 1 } }
    /// The bytes of the requests and responses kept.
    public var bytes: Int { state.withLock { $0.entries.bytes } }

    func record(_ make: (_ sequence: Int) -> JournalEntry) {
        state.withLock { state in
            let entry = make(state.next)
            state.next += 1
            state.dropped += state.entries.append(entry, bytes: entry.bytes)
        }
    }
}

extension JournalEntry {
    /// What the entry holds of the wire, in UTF-8: targets, headers and bodies, and a form body
    /// once more for its decoded fields.
    var bytes: Int {
        func size(_ headers: [HeaderField]) -> Int {
            headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        }
        let form = request.formFields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        return request.method.utf8.count + request.target.utf8.count + size(request.headers)
            + request.body.utf8.count + form + size(response.headers) + response.body.utf8.count
    }
}
