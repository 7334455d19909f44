/// A profile's `expected_failures` brought up to date with a run, as `conformance baseline`
/// writes them: what failed and is not listed is added, with the failed checks' levels and
/// statements as its reason; an entry whose scenarios now pass is dropped; a pattern that
/// covers passing and failing scenarios is narrowed to the failing ones, keeping its reason.
/// Entries the run cannot judge (their scenarios were not run, were skipped, inconclusive or
/// errors) are kept as they are, and so is every reason a person wrote.
public struct ExpectedFailuresBaseline: Sendable {
    /// What becomes of one entry of the profile, in the profile's order.
    public enum Decision: Sendable, Equatable {
        /// Still true, or nothing in the run says otherwise.
        case keep
        /// Every scenario it names that the run judged passed.
        case drop(passing: [String])
        /// A pattern covering scenarios that pass: replaced by the ones that still fail.
        case narrow(to: [ExpectedFailure], passing: [String])
    }

    public var decisions: [(entry: ExpectedFailure, decision: Decision)]
    /// Failures of the run that no entry lists, in scenario order.
    public var added: [ExpectedFailure]
    /// Errors no entry can hold: `expected_failures` lists gaps in behaviour, and an error is none.
    public var errors: [String]

    public init(current entries: [ExpectedFailure], run result: ConformanceResult) {
        var owned: [Int: [ScenarioRecord]] = [:]
        var added: [ExpectedFailure] = []
        var errors: [String] = []
        for scenario in result.scenarios {
            if let index = entries.firstIndex(where: { $0.matches(scenario.id) }) {
                owned[index, default: []].append(scenario)
            } else if scenario.verdict == .failed {
                added.append(ExpectedFailure(scenario: scenario.id, reason: scenario.failureReason))
            } else if scenario.verdict == .error {
                errors.append(scenario.id)
            }
        }
        decisions = entries.indices.map { index in
            let entry = entries[index]
            let scenarios = owned[index] ?? []
            let passing = scenarios.filter(\.passesNow).map(\.id)
            guard !passing.isEmpty else { return (entry, .keep) }
            let remaining = scenarios.filter { !$0.passesNow }.map(\.id)
            guard !remaining.isEmpty else { return (entry, .drop(passing: passing)) }
            return (
                entry,
                .narrow(to: remaining.map { ExpectedFailure(scenario: $0, reason: entry.reason) }, passing: passing)
            )
        }
        self.added = added
        self.errors = errors
    }

    /// The list the profile holds afterwards: its entries as decided, then the ones added.
    public var updated: [ExpectedFailure] {
        decisions.flatMap { entry, decision -> [ExpectedFailure] in
            switch decision {
            case .keep: [entry]
            case .drop: []
            case .narrow(let replacements, _): replacements
            }
        } + added
    }

    public var changesProfile: Bool {
        !added.isEmpty || decisions.contains { $0.decision != .keep }
    }

    /// What changed, a line each, for the console: `+` added, `-` dropped, `~` narrowed.
    public var changeLines: [String] {
        decisions.flatMap { entry, decision -> [String] in
            switch decision {
            case .keep: []
            case .drop(let passing):
                [
                    "- \(entry.scenario)  (passes now\(passing == [entry.scenario] ? "" : ": " + passing.joined(separator: ", ")))"
                ]
            case .narrow(let replacements, let passing):
                [
                    "~ \(entry.scenario)  → \(replacements.map(\.scenario).joined(separator: ", "))  "
                        + "(passes now: \(passing.joined(separator: ", ")))"
                ]
            }
        } + added.map { "+ \($0.scenario)  (\($0.reason))" }
    }
}

extension ScenarioRecord {
    /// Passed, or failed only because its profile lists it as an expected failure.
    fileprivate var passesNow: Bool {
        switch verdict {
        case .passed: true
        case .failed:
            !failedChecks.isEmpty
                && failedChecks.allSatisfy { $0.kind == ExpectedFailures.passedWhileListedCheckKind }
        case .skipped, .error, .inconclusive, .expectedFailure, .toleratedFailure: false
        }
    }

    /// `MUST: the refresh request carries the refresh token`: each failed check at the level the
    /// scenario fails at, the reason a new `expected_failures` entry is given until a person
    /// writes the known gap instead.
    fileprivate var failureReason: String {
        let level = failingLevel
        let decisive = failedChecks.filter { level == nil || $0.level == level }
        let label = (level?.rawValue ?? self.level)
        return "\(label): " + decisive.map(\.statement).joined(separator: "; ")
    }
}
