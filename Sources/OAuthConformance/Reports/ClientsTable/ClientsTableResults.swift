import Foundation

/// The results docs/clients.md is rendered from, committed beside it (docs/clients/results/) so
/// that a test renders the page again without running a library: of each client's result, only
/// what the table shows (verdicts, reasons, failed checks, the one timeline it quotes and the day
/// of the run), and nothing that changes from run to run besides (wall times, the time of day, the
/// seed, client output).
public enum ClientsTableResults {
    /// The folder of the committed results, from the repository root.
    public static let folder = "docs/clients/results"

    /// `python-authlib.json` for a client profiled by `Adapters/python/authlib.yaml`, the profile's
    /// name for a profile elsewhere, `reference.json` for a client built into the harness.
    public static func fileName(for result: ConformanceResult) -> String {
        let name: String
        if let profile = result.client.profileFile {
            let components = URL(fileURLWithPath: profile).deletingPathExtension().pathComponents
            let start = components.lastIndex(of: "Adapters").map { $0 + 1 } ?? components.count - 1
            name = components[start...].joined(separator: "-")
        } else {
            name = result.client.name
        }
        let safe = name.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "-" }
        return String(safe) + ".json"
    }

    /// What the table shows of a result.
    public static func trimmed(_ result: ConformanceResult) -> ConformanceResult {
        let quoted = LibraryFindings.evidence(among: result.scenarios)?.id
        var trimmed = result
        trimmed.seed = 0
        // The day of the run, which the table states; not the time, which would change the
        // committed file at every run of the same day.
        let secondsPerDay = 86_400.0
        trimmed.startedAt = Date(
            timeIntervalSince1970: (result.startedAt.timeIntervalSince1970 / secondsPerDay).rounded(.down)
                * secondsPerDay
        )
        trimmed.milliseconds = 0
        trimmed.scenarios = result.scenarios.map { scenario in
            var scenario = scenario
            scenario.milliseconds = 0
            scenario.clientOutput = nil
            scenario.checks = scenario.failedChecks
            if scenario.id != quoted { scenario.timeline = nil }
            return scenario
        }
        return trimmed
    }

    /// The order the table lists clients in, as scripts/clients-table runs them: the clients
    /// built into the harness first, then by profile path.
    public static func tableOrder(_ results: [ConformanceResult]) -> [ConformanceResult] {
        results.sorted { ($0.client.profileFile ?? "", $0.client.name) < ($1.client.profileFile ?? "", $1.client.name) }
    }
}
