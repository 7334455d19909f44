/// The readable summary: a line per scenario, the reasons for every failure with its timeline,
/// then the totals.
public struct ConsoleReport: Sendable {
    public init() {}

    public func line(for result: ScenarioResult) -> String {
        let time = "(\(Self.milliseconds(result.wallTime)) ms)"
        switch result.verdict {
        case .passed: return "PASS   \(result.scenario.id)  \(time)"
        case .failed: return "FAIL   \(result.scenario.id)  \(time)"
        case .skipped(let reason): return "SKIP   \(result.scenario.id)  (\(reason))"
        case .error(let problem): return "ERROR  \(result.scenario.id)  \(problem)"
        }
    }

    /// Why the scenario did not pass, with its timeline; empty for a pass or a skip.
    public func details(for result: ScenarioResult) -> [String] {
        switch result.verdict {
        case .passed, .skipped: return []
        case .failed, .error:
            var lines = ["       \(result.scenario.title) [\(result.scenario.level.rawValue); \(result.scenario.spec.joined(separator: ", "))]"]
            for check in result.failedChecks {
                lines.append("       ✗ \(check.statement)")
                lines.append("           expected: \(check.expected)")
                lines.append("           observed: \(check.observed)")
            }
            if let transcript = result.transcript {
                let evidence = Set(result.failedChecks.flatMap(\.evidence))
                lines.append("       timeline:")
                lines += TimelineText.lines(for: transcript, marking: evidence).map { "         " + $0 }
            }
            return lines
        }
    }

    public func summary(of run: SuiteRun) -> String {
        let seconds = Double(Self.milliseconds(run.wallTime)) / 1000
        return "\(run.results.count) scenarios against \(run.profile.name) \(run.profile.version): "
            + "\(run.passedCount) passed, \(run.failedCount) failed, \(run.skippedCount) skipped, \(run.errorCount) errors "
            + "in \(JUnitReport.seconds(seconds)) s"
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int((duration.seconds * 1000).rounded())
    }
}
