import Dispatch
import Foundation
import OAuthConformance
import Synchronization

/// SIGINT and SIGTERM turned into an orderly stop: the first one calls `onInterrupt` (which
/// cancels the suite, so the reports are still written); a second one exits at once, for when
/// stopping takes too long, after killing every running adapter and what it started. The exit
/// status is 128 + the signal number (130 for SIGINT, 143 for SIGTERM), as shells report a
/// program a signal ended.
final class InterruptSignals {
    static let watched: [Int32] = [SIGINT, SIGTERM]

    private let caught = CaughtSignal()
    private var sources: [any DispatchSourceSignal] = []

    /// Starts watching; the default actions are ignored until `stop()`, so the dispatch sources see the signals.
    /// `stopping` says what the first signal sets off.
    init(stopping: String = "stopping and writing the reports", onInterrupt: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "conformance.signals")
        for number in Self.watched {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [caught] in
                guard caught.record(number) else {
                    RunningProcesses.killAll()
                    exit(128 + number)
                }
                Console.error(
                    "conformance: \(number == SIGINT ? "SIGINT" : "SIGTERM") received; \(stopping) (again to quit at once)"
                )
                onInterrupt()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal received, if any.
    var received: Int32? { caught.first }

    /// Stops watching and restores the default actions.
    func stop() {
        for source in sources { source.cancel() }
        sources.removeAll()
        for number in Self.watched { signal(number, SIG_DFL) }
    }
}

/// The first signal received, shared with the handlers, which run on a dispatch queue.
private final class CaughtSignal: Sendable {
    private let value = Mutex<Int32?>(nil)

    /// Records the signal; true when it is the first.
    func record(_ number: Int32) -> Bool {
        value.withLock { first in
            guard first == nil else { return false }
            first = number
            return true
        }
    }

    var first: Int32? { value.withLock { $0 } }
}
