import Foundation

/// Runs scenarios one after another against one client.
public struct SuiteRunner: Sendable {
    public var scenarioRunner: ScenarioRunner

    public init(scenarioRunner: ScenarioRunner = ScenarioRunner()) {
        self.scenarioRunner = scenarioRunner
    }

    public func run(
        _ scenarios: [Scenario], with factory: any ClientFactory, onResult: (ScenarioResult) -> Void = { _ in }
    ) async -> SuiteRun {
        let startedAt = Date()
        let started = ContinuousClock.now
        var results: [ScenarioResult] = []
        for scenario in scenarios {
            let result = await scenarioRunner.run(scenario, with: factory)
            onResult(result)
            results.append(result)
        }
        return SuiteRun(profile: factory.profile, results: results, startedAt: startedAt, wallTime: ContinuousClock.now - started)
    }
}

/// The results of running a suite against one client.
public struct SuiteRun: Sendable {
    public var profile: ClientProfile
    public var results: [ScenarioResult]
    public var startedAt: Date
    public var wallTime: Duration

    public init(profile: ClientProfile, results: [ScenarioResult], startedAt: Date, wallTime: Duration) {
        self.profile = profile
        self.results = results
        self.startedAt = startedAt
        self.wallTime = wallTime
    }

    public func count(where predicate: (Verdict) -> Bool) -> Int {
        results.count { predicate($0.verdict) }
    }

    public var passedCount: Int { count { $0 == .passed } }
    public var failedCount: Int { count { $0 == .failed } }
    public var skippedCount: Int { count { if case .skipped = $0 { true } else { false } } }
    public var errorCount: Int { count { if case .error = $0 { true } else { false } } }
    /// No failures and no errors; skipped scenarios do not spoil a run.
    public var conforms: Bool { failedCount == 0 && errorCount == 0 }
}
