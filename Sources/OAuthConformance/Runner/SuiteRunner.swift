import Foundation
import Synchronization

/// Runs scenarios against one client, up to `jobs` at a time (each scenario has its own provider,
/// clock and client, so they cannot disturb each other). Results come back, and `onResult` is
/// called, in the order the scenarios were given, whatever order they finish in; `onStart` and
/// `onFinish` say as it happens which scenario starts and which ends (an isolation worker
/// reports both to the run that supervises it). Cancelling the
/// task that runs the suite (as `conformance run` does on SIGINT or SIGTERM) stops it at once: the
/// scenarios in progress are abandoned, and they and every scenario not yet started come back as
/// interrupted errors, so the reports still list the whole suite.
public struct SuiteRunner: Sendable {
    public var scenarioRunner: ScenarioRunner
    /// How many scenarios run at once; 1 runs them one after another.
    public var jobs: Int

    public init(scenarioRunner: ScenarioRunner = ScenarioRunner(), jobs: Int = 1) {
        self.scenarioRunner = scenarioRunner
        self.jobs = max(1, jobs)
    }

    /// `onStart` is called in the scenario's own task, just before it runs; `onFinish` as each
    /// result comes in, in the order they finish.
    public func run(
        _ scenarios: [Scenario],
        with factory: any ClientFactory,
        onResult: (ScenarioResult) -> Void = { _ in },
        onStart: @escaping @Sendable (Scenario) -> Void = { _ in },
        onFinish: (ScenarioResult) -> Void = { _ in }
    ) async -> SuiteRun {
        let startedAt = Date()
        let started = ContinuousClock.now
        var order = ScenarioOrder<ScenarioResult>(count: scenarios.count)
        var nextToStart = 0
        let runner = scenarioRunner
        await withTaskGroup(of: (Int, ScenarioResult).self) { group in
            func startNext() {
                guard nextToStart < scenarios.count, !Task.isCancelled else { return }
                let index = nextToStart
                let scenario = scenarios[index]
                nextToStart += 1
                group.addTask {
                    onStart(scenario)
                    let scenarioStarted = ContinuousClock.now
                    let result = await Self.unlessCancelled { await runner.run(scenario, with: factory) }
                    return (
                        index,
                        result
                            ?? .interrupted(scenario, wasRunning: true, wallTime: ContinuousClock.now - scenarioStarted)
                    )
                }
            }
            for _ in 0..<jobs { startNext() }
            for await (index, result) in group {
                onFinish(result)
                order.finish(result, at: index).forEach(onResult)
                startNext()
            }
        }
        for index in nextToStart..<scenarios.count {
            let unstarted = ScenarioResult.interrupted(scenarios[index], wasRunning: false, wallTime: .zero)
            order.finish(unstarted, at: index).forEach(onResult)
        }
        var run = SuiteRun(
            profile: factory.profile,
            results: order.all,
            startedAt: startedAt,
            wallTime: ContinuousClock.now - started
        )
        run.interrupted = Task.isCancelled
        return run
    }

    /// Runs `operation` in a task of its own and waits for it, unless the calling task is
    /// cancelled first: then the operation is cancelled and left behind, and `nil` returned at once.
    private static func unlessCancelled<Value: Sendable>(
        _ operation: @escaping @Sendable () async -> Value
    ) async -> Value? {
        let pending = Mutex<CheckedContinuation<Value?, Never>?>(nil)
        let work = Mutex<Task<Void, Never>?>(nil)
        let finish: @Sendable (Value?) -> Void = { value in
            pending.withLock { continuation in
                continuation?.resume(returning: value)
                continuation = nil
            }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                pending.withLock { $0 = continuation }
                work.withLock { $0 = Task { finish(await operation()) } }
                // A cancellation that came before the continuation was stored found nothing to resume.
                if Task.isCancelled { finish(nil) }
            }
        } onCancel: {
            work.withLock { $0?.cancel() }
            finish(nil)
        }
    }
}

/// The results of running a suite against one client.
public struct SuiteRun: Sendable {
    public var profile: ClientProfile
    public var results: [ScenarioResult]
    public var startedAt: Date
    public var wallTime: Duration
    /// The seed of the run, recorded in every report so a run can be repeated. The harness makes
    /// no random choices of its own yet, so it is 0 unless a caller sets it.
    public var seed: UInt64 = 0
    /// The part of the suite this run covers when the suite is split across CI jobs.
    public var shard: Shard?
    /// The file the client's profile was read from; `nil` for a profile built into the harness.
    public var profileFile: String?
    /// The run was stopped before every scenario finished (SIGINT, SIGTERM).
    public var interrupted = false

    public init(profile: ClientProfile, results: [ScenarioResult], startedAt: Date, wallTime: Duration) {
        self.profile = profile
        self.results = results
        self.startedAt = startedAt
        self.wallTime = wallTime
    }

    public func count(where predicate: (Verdict) -> Bool) -> Int {
        results.count { predicate($0.verdict) }
    }

    public var failedCount: Int { count { $0 == .failed } }
    public var errorCount: Int { count { if case .error = $0 { true } else { false } } }
    /// No failures and no errors; skipped scenarios do not spoil a run.
    public var conforms: Bool { failedCount == 0 && errorCount == 0 }
}
