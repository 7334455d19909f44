import Synchronization

/// Draws latency jitter from a seeded generator (SplitMix64), so a scenario with jitter
/// behaves the same on every run with the same seed.
final class JitterSource: Sendable {
    private let state: Mutex<UInt64>

    init(seed: UInt64) {
        state = Mutex(seed)
    }

    /// Replaces a jittered delay by a concrete one; other deliveries pass through.
    func resolve(_ delivery: Delivery) -> Delivery {
        guard case .delayed(let latency, let jitter) = delivery, jitter > .zero else { return delivery }
        let fraction = Double(next() >> 11) / Double(1 << 53)
        return .delayed(latency: latency + jitter * fraction, jitter: .zero)
    }

    private func next() -> UInt64 {
        state.withLock { state in
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }
}
