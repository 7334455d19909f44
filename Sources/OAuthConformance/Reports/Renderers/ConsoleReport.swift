/// The readable summary: a line per scenario, the reasons for every failure with its timeline,
/// then a table by area and the totals. A client's text is shown sanitised and cut to a line
/// limit, so no client can garble the terminal or flood the log; the files keep it whole.
public struct ConsoleReport: Sendable {
    /// Verdicts in colour: for a terminal only.
    public var colour: Bool
    /// Longest line shown for a client's text.
    public var lineLimit: Int
    /// Runs longer than this show each scenario's position, `[12/40]`, as progress.
    public static let progressThreshold = 20

    public init(colour: Bool = false, lineLimit: Int = 2_000) {
        self.colour = colour
        self.lineLimit = lineLimit
    }

    /// Colour on a terminal, unless `NO_COLOR` is set to anything (no-color.org) or the terminal is dumb.
    public static func wantsColour(environment: [String: String], isTerminal: Bool) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// `PASS   refresh/x  (19 ms)`; with `progress`, prefixed by the position in a long run.
    public func line(for result: ScenarioResult, progress: (done: Int, total: Int)? = nil) -> String {
        line(for: ScenarioRecord(result), progress: progress)
    }

    /// The line of a scenario as its result records it: what a run supervising isolation
    /// workers has of the scenarios they judged.
    public func line(for record: ScenarioRecord, progress: (done: Int, total: Int)? = nil) -> String {
        let time = "(\(record.milliseconds) ms)"
        let id = record.id
        let reason = record.reason ?? ""
        let (verdict, colour, rest): (String, Colour, String) =
            switch record.verdict {
            case .passed: ("PASS", .green, "\(id)  \(time)")
            case .failed:
                ("FAIL", .red, "\(id)  \(time)\(record.failingLevel.map { "  fails at \($0.rawValue)" } ?? "")")
            case .skipped: ("SKIP", .yellow, "\(id)  (\(reason))")
            case .inconclusive: ("INCONC", .magenta, "\(id)  \(time)  not exercised: \(reason)")
            case .error: ("ERROR", .magenta, "\(id)  \(reason)")
            case .expectedFailure: ("XFAIL", .yellow, "\(id)  (expected failure: \(reason))")
            case .toleratedFailure: ("WARN", .yellow, "\(id)  \(time)  \(reason)")
            }
        let line = label(verdict, colour) + String(repeating: " ", count: 7 - verdict.count) + shown(rest)
        guard let progress, progress.total > Self.progressThreshold else { return line }
        let done = String(progress.done)
        let padding = String(repeating: " ", count: max(0, String(progress.total).count - done.count))
        return "[\(padding)\(done)/\(progress.total)] \(line)"
    }

    /// Why the scenario did not pass, with its timeline; empty for a pass or a skip.
    public func details(for result: ScenarioResult) -> [String] {
        details(for: ScenarioRecord(result))
    }

    /// The details of a scenario as its result records it, the requests behind a failure marked in its timeline.
    public func details(for record: ScenarioRecord) -> [String] {
        switch record.verdict {
        case .passed, .skipped, .expectedFailure: return []
        case .failed, .error, .toleratedFailure, .inconclusive:
            var lines = ["       \(record.title) [\(record.level); \(record.spec.joined(separator: ", "))]"]
            for check in record.failedChecks {
                lines.append("       ✗ \(check.leveledStatement)")
                lines.append("           expected: \(check.expected)")
                lines.append("           observed: \(check.observed)")
            }
            if let timeline = record.timeline {
                lines.append("       timeline:")
                lines += timeline.map { "         " + $0 }
            }
            return lines.map(shown)
        }
    }

    /// Counts by area, then the whole run (and a column of expected failures when there are any):
    /// ```
    /// area      passed  failed  skipped  errors
    /// refresh        2       0        0       0
    /// ```
    public func table(for result: ConformanceResult) -> [String] {
        let rows = result.scenariosByArea.map { ($0.area, $0.scenarios) } + [("all", result.scenarios)]
        let width = max(4, rows.map(\.0.count).max() ?? 0)
        let columns = result.shownVerdicts.map { "  " + Self.columnName($0) }
        let header = "area".padding(toLength: width, withPad: " ", startingAt: 0) + columns.joined()
        return [header]
            + rows.map { area, scenarios in
                let counts = result.shownVerdicts.map { verdict in scenarios.count { $0.verdict == verdict } }
                return area.padding(toLength: width, withPad: " ", startingAt: 0)
                    + zip(counts, columns).map { count, column in
                        String(repeating: " ", count: max(0, column.count - String(count).count)) + String(count)
                    }.joined()
            }
    }

    /// `11 scenarios against reference 0.1.0: 11 passed, 0 failed, 0 skipped, 0 errors in 0.116 s`.
    public func summary(of result: ConformanceResult) -> String {
        "\(result.scenarios.count) scenarios against \(shown(result.client.label)): \(result.tally) "
            + "in \(JUnitReport.seconds(milliseconds: result.milliseconds)) s"
            + (result.interrupted ? " (interrupted)" : "")
    }

    private static func columnName(_ verdict: VerdictRecord) -> String {
        switch verdict {
        case .error: "errors"
        case .expectedFailure: "xfail"
        case .toleratedFailure: "tolerated"
        case .passed, .failed, .skipped, .inconclusive: verdict.rawValue
        }
    }

    private enum Colour: Int {
        case red = 31
        case green = 32
        case yellow = 33
        case magenta = 35
    }

    private func label(_ text: String, _ colour: Colour) -> String {
        self.colour ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// A client's text as the console shows it, on one line: terminal escapes removed, control
    /// characters (line breaks included) written as visible escapes, cut to the line limit.
    private func shown(_ text: String) -> String {
        ReportText.capped(ReportText.visible(text), to: lineLimit)
    }
}
