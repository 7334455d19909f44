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
    public var now: Date { date(at: elapsed) }

    /// The wall-clock instant of a virtual instant (time since the scenario started).
    public func date(at instant: Duration) -> Date { origin.addingTimeInterval(instant.seconds) }

    /// Virtual time ends with the year 9999 (`NumericDate.latest`): a wait beyond it, which only a
    /// number from outside asks for (a scripted polling interval of Int.max seconds), leaves the
    /// clock there, where every instant still converts to whole Unix seconds.
    public func advance(by amount: Duration) {
        precondition(amount >= .zero, "virtual time never runs backwards")
        let end = Duration.seconds(Double(NumericDate.latest) - origin.timeIntervalSince1970)
        elapsedSinceOrigin.withLock { $0 += min(amount, max(end - $0, .zero)) }
    }

    /// Moves to `instant` if it lies ahead; an instant already passed leaves the clock where it is.
    public func advance(to instant: Duration) {
        let ahead = instant - elapsed
        if ahead > .zero { advance(by: ahead) }
    }
}

extension Duration {
    /// The duration as fractional seconds, for arithmetic with `Date` and for display. Read from
    /// the attoseconds, since `components` traps past Int64.max seconds.
    public var seconds: Double {
        let (whole, fraction) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
        return Double(whole) + Double(fraction) / 1e18
    }
}
