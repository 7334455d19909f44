/// How an answer travels back, for transport faults a real network or a struggling provider
/// produces. Latencies are real time: they exist to make requests overlap and clients time out.
public enum Delivery: Sendable, Equatable {
    /// Sent at once, whole.
    case immediate
    /// Sent after `latency`, plus a uniformly drawn extra of up to `jitter` (seeded, so repeatable).
    case delayed(latency: Duration, jitter: Duration)
    /// Never sent; the connection stays open until the client gives up.
    case never
    /// The connection is reset (TCP RST) instead of answered.
    case reset
    /// The connection is closed without a byte of answer.
    case closeWithoutAnswer
    /// These bytes instead of HTTP, then the connection is closed.
    case garbage(String)
    /// The head at once, then the body `chunkSize` bytes at a time, one chunk every `interval`.
    case dribble(chunkSize: Int, interval: Duration)
    /// Sent once the provider has received its n-th request (counting every endpoint), so an
    /// answer can be ordered after other requests without guessing a latency; sent anyway after
    /// ten seconds.
    case heldUntilRequest(Int)

    /// Whether the answer reaches the client at all (late or slowly, perhaps): a reset, a close
    /// or garbage leaves it with no status to read.
    public var carriesTheAnswer: Bool {
        switch self {
        case .immediate, .delayed, .dribble, .heldUntilRequest: true
        case .never, .reset, .closeWithoutAnswer, .garbage: false
        }
    }

    /// How the journal and timelines name it.
    public var label: String {
        switch self {
        case .immediate: "immediate"
        case .delayed(let latency, let jitter): "delayed \(latency)" + (jitter > .zero ? " ± \(jitter)" : "")
        case .never: "never answered"
        case .reset: "connection reset"
        case .closeWithoutAnswer: "closed without an answer"
        case .garbage: "garbage, then closed"
        case .dribble(let size, let interval): "dribbled \(size) bytes every \(interval)"
        case .heldUntilRequest(let number): "held until request no. \(number) arrived"
        }
    }
}

/// An answer and how it travels.
public struct ProviderReply: Sendable, Equatable {
    public var response: ProviderResponse
    public var delivery: Delivery

    public init(_ response: ProviderResponse, delivery: Delivery = .immediate) {
        self.response = response
        self.delivery = delivery
    }
}
