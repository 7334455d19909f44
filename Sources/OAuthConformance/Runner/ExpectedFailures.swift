/// Holds verdicts against the expected failures a client's profile lists, as pytest's strict
/// `xfail` does: a listed scenario that fails is an expected failure; one that passes is a
/// failure, so the list cannot go stale unnoticed. An entry applies to a FAIL only: an error or a
/// skip stays what it is.
public struct ExpectedFailures: Sendable {
    public var entries: [ExpectedFailure]

    /// The kind of the check added to a listed scenario that passed.
    public static let passedWhileListedCheckKind = "expected_failure"

    public init(_ entries: [ExpectedFailure]) {
        self.entries = entries
    }

    /// The first entry that names the scenario.
    public func entry(for scenarioID: String) -> ExpectedFailure? {
        entries.first { $0.matches(scenarioID) }
    }

    public func apply(to result: ScenarioResult) -> ScenarioResult {
        guard let entry = entry(for: result.scenario.id) else { return result }
        var held = result
        switch result.verdict {
        case .failed:
            held.verdict = .expectedFailure(reason: entry.reason)
            held.probe = entry.probe
        case .passed:
            held.verdict = .failed
            held.checks.append(
                CheckResult(
                    kind: Self.passedWhileListedCheckKind,
                    statement: "listed in the profile's expected_failures as \"\(entry.scenario)\"",
                    passed: false,
                    expected: "the scenario fails (\(entry.reason))",
                    observed: "it passed: remove it from expected_failures"
                )
            )
        case .error, .skipped, .inconclusive, .expectedFailure, .toleratedFailure:
            // An entry names a known gap in behaviour; an error is no verdict on behaviour at all
            // (a missing interpreter, a crashed adapter) and must stay visible as one.
            break
        }
        return held
    }

    /// Entries that name none of these scenarios: a typo, or a scenario renamed or removed.
    public func unmatched(by scenarioIDs: [String]) -> [ExpectedFailure] {
        entries.filter { entry in !scenarioIDs.contains { entry.matches($0) } }
    }
}
