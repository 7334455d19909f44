/// What one client gets wrong, read from its result: each distinct failure with the scenarios
/// that show it, what it does not support, and the one failing scenario whose timeline the
/// clients table quotes as evidence.
struct LibraryFindings {
    /// One thing the client does wrong, in one behaviour family.
    struct Finding: Equatable {
        var family: BehaviourFamily
        /// The reason its profile's `expected_failures` give (checked against the transcripts
        /// when the profile was written), or for a failure no profile expected, the checks it failed.
        var text: String
        /// The profile lists it as an expected failure.
        var known: Bool
        /// The probe that confirms the profile's reason without the harness; for an expected
        /// failure without one, the reason is not published and `text` holds the checks it failed.
        var probe: String?
        var scenarioIDs: [String]
    }

    /// A reason scenarios were skipped (`the client does not declare refresh_on_401`) and how many.
    struct Unsupported: Equatable {
        var reason: String
        var count: Int
    }

    var findings: [Finding] = []
    var unsupported: [Unsupported] = []
    /// The failing scenario to show the timeline of; nil when nothing failed.
    var evidence: ScenarioRecord?

    init(_ result: ConformanceResult) {
        for scenario in result.scenarios {
            if scenario.verdict == .skipped {
                let reason = StableText.masked(scenario.reason ?? "skipped")
                if let index = unsupported.firstIndex(where: { $0.reason == reason }) {
                    unsupported[index].count += 1
                } else {
                    unsupported.append(Unsupported(reason: reason, count: 1))
                }
            }
            guard let (text, known) = Self.describe(scenario) else { continue }
            let family = BehaviourFamily.family(of: scenario)
            if let index = findings.firstIndex(where: {
                $0.family == family && $0.text == text && $0.probe == scenario.probe
            }) {
                findings[index].scenarioIDs.append(scenario.id)
            } else {
                findings.append(
                    Finding(family: family, text: text, known: known, probe: scenario.probe, scenarioIDs: [scenario.id])
                )
            }
        }
        let order = BehaviourFamily.all + [.other]
        // A stable sort: within a family, findings stay in the order of their first scenario.
        findings = findings.enumerated().sorted { first, second in
            let (a, b) = (
                order.firstIndex(of: first.element.family) ?? 0, order.firstIndex(of: second.element.family) ?? 0
            )
            return a == b ? first.offset < second.offset : a < b
        }.map(\.element)
        evidence = Self.evidence(among: result.scenarios)
    }

    /// What a scenario that did not pass says is wrong, and whether its profile expected it;
    /// nil for a pass or a skip. The reason a profile gives is a claim about the library, published
    /// only with the probe that confirms it; without one, the checks the scenario failed say what is wrong.
    private static func describe(_ scenario: ScenarioRecord) -> (text: String, known: Bool)? {
        switch scenario.verdict {
        case .passed, .skipped:
            return nil
        case .expectedFailure:
            guard scenario.probe != nil else { return (failedChecks(of: scenario), true) }
            return (StableText.masked(scenario.reason ?? "expected failure"), true)
        case .failed, .toleratedFailure:
            return (failedChecks(of: scenario), false)
        case .error:
            return ("could not be judged: " + StableText.masked(scenario.reason ?? "error"), false)
        case .inconclusive:
            return ("not exercised: " + StableText.masked(scenario.reason ?? "inconclusive"), false)
        }
    }

    /// `fails: MUST: …; SHOULD: …`, or the title when no check is recorded.
    private static func failedChecks(of scenario: ScenarioRecord) -> String {
        let checks = scenario.failedChecks.map(\.leveledStatement)
        return "fails: " + (checks.isEmpty ? scenario.title : checks.joined(separator: "; "))
    }

    /// The failure that tells most and reads the same in every run: from a family whose
    /// timelines do not vary between runs if there is one, a failure before an error, the
    /// strictest level, then the shortest timeline (the easiest to read), then the id.
    static func evidence(among scenarios: [ScenarioRecord]) -> ScenarioRecord? {
        let candidates = scenarios.filter { ($0.verdict.isFailure || $0.verdict == .error) && $0.timeline != nil }
        func key(_ scenario: ScenarioRecord) -> (Int, Int, Int, Int) {
            (
                BehaviourFamily.family(of: scenario).timelinesVaryBetweenRuns ? 1 : 0,
                scenario.verdict == .error ? 1 : 0,
                -(scenario.failingLevel ?? Level(rawValue: scenario.level) ?? .policy).strictness,
                scenario.timeline?.count ?? 0
            )
        }
        return candidates.min { first, second in
            key(first) == key(second) ? first.id < second.id : key(first) < key(second)
        }
    }
}
