/// One cell of the clients table: how one client did on the scenarios of one behaviour family.
struct FamilyTally: Equatable {
    var passed = 0
    /// Failed, whether or not its profile lists the failure as expected or the run tolerated it.
    var failed = 0
    var skipped = 0
    /// Could not be judged (the adapter crashed, hung or answered garbage).
    var errors = 0
    /// Ran, but never reached what the scenario is about: no verdict on the behaviour.
    var inconclusive = 0
    /// The strictest level a failed scenario failed at: MUST outweighs SHOULD, SHOULD POLICY.
    var strictestFailure: Level?
    /// The library leaves the family to the application (`application_part`): what ran judged
    /// the adapter's few lines as much as the library.
    var leftToTheApplication: Bool

    init(_ scenarios: [ScenarioRecord], leftToTheApplication: Bool = false) {
        self.leftToTheApplication = leftToTheApplication
        var failingLevels: [Level] = []
        for scenario in scenarios {
            switch scenario.verdict {
            case .passed: passed += 1
            case .skipped: skipped += 1
            case .error: errors += 1
            case .inconclusive: inconclusive += 1
            case .failed, .expectedFailure, .toleratedFailure:
                failed += 1
                failingLevels.append(scenario.failingLevel ?? Level(rawValue: scenario.level) ?? .policy)
            }
        }
        strictestFailure = Level.strictest(failingLevels)
    }

    enum Outcome: Equatable {
        case pass, fail, error
        /// Every scenario skipped: the client lacks a capability the family needs.
        case notSupported
        /// The result holds none of the family's scenarios.
        case notRun
    }

    /// A failure outweighs an error, and an error a pass: the cell shows the worst.
    var outcome: Outcome {
        if failed > 0 { return .fail }
        if errors > 0 { return .error }
        if passed > 0 { return .pass }
        return skipped > 0 ? .notSupported : .notRun
    }

    /// The scenarios that ran and were judged or errored: what `passed/judged` counts against.
    var judged: Int { passed + failed + errors }

    /// `✅ pass 8/8`, `❌ fail MUST 5/8, 2 skipped`, `➖ not supported, 4 skipped`, and for a family
    /// the library leaves to the application `🧩 application's part 3/4`.
    var text: String {
        var parts: [String] =
            switch outcome {
            case _ where leftToTheApplication && judged > 0: ["🧩 application's part \(passed)/\(judged)"]
            case .pass: ["✅ pass \(passed)/\(judged)"]
            case .fail: ["❌ fail \(strictestFailure.map { "\($0.rawValue) " } ?? "")\(passed)/\(judged)"]
            case .error: ["⚠️ error \(passed)/\(judged)"]
            case .notSupported: ["➖ not supported"]
            case .notRun: ["· not run"]
            }
        if errors > 0, outcome != .error { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if inconclusive > 0 { parts.append("\(inconclusive) not exercised") }
        if skipped > 0 { parts.append("\(skipped) skipped") }
        return parts.joined(separator: ", ")
    }
}
