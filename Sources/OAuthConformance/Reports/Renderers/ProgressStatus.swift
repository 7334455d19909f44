/// The line a terminal shows under the results while a long run goes on, rewritten in place
/// after each result: how far the run is, what has failed so far and how long it has taken.
/// A log (CI) never gets it: there each result is a line of its own, which says as much.
public struct ProgressStatus: Sendable {
    /// Erases the status line, so that the next result is printed where it stood.
    public static let erase = "\r\u{1B}[K"

    public let total: Int
    public private(set) var done = 0
    /// Scenarios whose verdict fails the run: failures and errors.
    public private(set) var failing = 0

    public init(total: Int) {
        self.total = total
    }

    /// Whether a run of this many scenarios shows the line: a short one is over before it helps.
    public static func isShown(forTotal total: Int, onTerminal isTerminal: Bool) -> Bool {
        isTerminal && total > ConsoleReport.progressThreshold
    }

    public mutating func record(_ result: ScenarioResult) {
        record(ScenarioRecord(result))
    }

    public mutating func record(_ record: ScenarioRecord) {
        done += 1
        switch record.verdict {
        case .failed, .error: failing += 1
        case .passed, .skipped, .inconclusive, .expectedFailure, .toleratedFailure: break
        }
    }

    /// `[ 96/183]  2 failing  12 s elapsed`, without a line break.
    public func line(elapsed: Duration) -> String {
        let width = String(total).count
        let count = String(repeating: " ", count: max(0, width - String(done).count)) + String(done)
        return
            "[\(count)/\(total)]  \(failing) failing  \(DurationText.format(.seconds(elapsed.components.seconds))) elapsed"
    }
}
