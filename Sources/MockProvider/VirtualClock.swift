import Foundation
import Synchronization

/// The clock a scenario runs on. Time moves only when the runner advances it, so a one-hour token
/// lifetime costs no real hour and every run of a scenario sees the same instants.
public final class VirtualClock: Sendable {
    /// A fixed, recognisable origin keeps transcripts identical from run to run.
    public static let defaultOrigin = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    public let origin: Date
    private let elapsedSinceOrigin: Mutex<Duration>
    /// Set when the clock also runs with real time, as a standalone provider's does.
    private let realTimeStart: ContinuousClock.Instant?

    public init(origin: Date = VirtualClock.defaultOrigin) {
        self.origin = origin
        self.elapsedSinceOrigin = Mutex(.zero)
        self.realTimeStart = nil
    }

    /// A clock that runs with real time from now on (and can still be advanced), starting at the
    /// real date: `conformance serve` uses it so tokens expire as they would in production.
    public static func followingRealTime() -> VirtualClock {
        VirtualClock(origin: Date(), realTimeStart: .now)
    }

    private init(origin: Date, realTimeStart: ContinuousClock.Instant) {
        self.origin = origin
        self.elapsedSinceOrigin = Mutex(.zero)
        self.realTimeStart = realTimeStart
    }

    /// Virtual time since the scenario started.
    public var elapsed: Duration {
        elapsedSinceOrigin.withLock { $0 } + (realTimeStart.map { ContinuousClock.now - $0 } ?? .zero)
    }

    /// The virtual wall-clock instant, for clients that think in dates.
    public var now: Date { origin.addingTimeInterval(elapsed.seconds) }

    public func advance(by amount: Duration) {
        precondition(amount >= .zero, "virtual time never runs backwards")
        elapsedSinceOrigin.withLock { $0 += amount }
    }

    /// Moves to `instant` if it lies ahead; an instant already passed leaves the clock where it is.
    public func advance(to instant: Duration) {
        let ahead = instant - elapsed
        if ahead > .zero { advance(by: ahead) }
    }
}

extension Duration {
    /// The duration as fractional seconds, for arithmetic with `Date` and for display.
    public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
