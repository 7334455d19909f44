import Foundation

/// Runs a suite in isolation workers, child processes of the harness that each judge scenarios
/// in their own memory (`conformance run --isolate`), so that a crash of the harness while it
/// judges one scenario costs that scenario, not the run. A worker is given scenarios on stdin
/// and writes a `WorkerMessage` line as each starts and ends; when it dies (a signal, an exit
/// before it finished, a line that is not a message), the scenario it was judging becomes an
/// error naming how it died, and a new worker takes the rest (`IsolationSchedule` says which).
/// A scenario still unjudged after `hangLimit` is taken for a hang of the harness: its worker is
/// killed and it becomes an error the same way. Results are let out in suite order, as
/// `SuiteRunner` lets them out, and the result is the one a run in one process would have had.
public struct IsolatedSuiteRunner: Sendable {
    /// How many scenarios a worker runs at once.
    public var jobs: Int
    /// The longest a scenario may stay in flight, and a worker stay silent with none in flight.
    public var hangLimit: Duration
    /// The command line of a worker that runs this many scenarios at once.
    public var workerCommand: @Sendable (_ jobs: Int) -> [String]

    /// The longest line a worker may write: a scenario's record with its timeline and the client's output.
    static let longestLine = 256 << 20

    public init(jobs: Int, hangLimit: Duration, workerCommand: @escaping @Sendable (_ jobs: Int) -> [String]) {
        self.jobs = max(1, jobs)
        self.hangLimit = hangLimit
        self.workerCommand = workerCommand
    }

    /// The hang limit for scenarios a runner judges: twice the scenario timeout and a minute,
    /// so a client that uses all of its time (and its start and shutdown) is never taken for a hang.
    public static func hangLimit(for runner: ScenarioRunner) -> Duration {
        runner.scenarioTimeout * 2 + .seconds(60)
    }

    /// Runs the scenarios, calling `onResult` in suite order and `onWorkerLost` with what a worker
    /// that ended badly wrote to its stderr. `client` stands for the client until a worker has
    /// described it. Cancelling the calling task stops the workers and ends the run as an
    /// interrupted one, every unfinished scenario an error, as `SuiteRunner` does.
    public func run(
        _ scenarios: [Scenario],
        client: ClientRecord,
        onResult: (ScenarioRecord) -> Void = { _ in },
        onWorkerLost: (String) -> Void = { _ in }
    ) async -> ConformanceResult {
        let startedAt = Date()
        let started = ContinuousClock.now
        var results = IsolatedResults(scenarios: scenarios, client: client)
        var schedule = IsolationSchedule(scenarios: scenarios.map(\.id), jobs: jobs)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oauth-conformance-worker-\(UUID().uuidString)"
        )
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        var launches = 0
        while !Task.isCancelled, let assignment = schedule.nextAssignment() {
            launches += 1
            let stderrFile = scratch.appendingPathComponent("stderr-\(launches)").path
            let ending = await work(
                on: assignment,
                stderrFile: stderrFile,
                schedule: &schedule,
                results: &results,
                onResult: onResult
            )
            if Task.isCancelled { break }
            let stderr = (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? ""
            if !ending.isClean {
                onWorkerLost(
                    "conformance: an isolation worker \(ending.how)"
                        + (stderr.isEmpty ? "" : "; its stderr:\n" + Self.tail(stderr))
                )
            }
            let lastWords = Self.lastWords(stderr).map { "; its stderr ends: \($0)" } ?? ""
            let now = ContinuousClock.now
            let startedAtInstants = schedule.inFlight
            for (scenario, loss) in schedule.workerEnded(hung: ending.hung) {
                let reason =
                    switch loss {
                    case .crashed:
                        "the harness crashed while judging this scenario: its isolation worker \(ending.how)\(lastWords)"
                    case .hung:
                        "the harness did not finish judging this scenario within \(DurationText.format(hangLimit)): its isolation worker was killed\(lastWords)"
                    case .neverStarted:
                        "the harness's isolation worker \(ending.how) before it started this scenario\(lastWords)"
                    }
                let wallTime = startedAtInstants[scenario].map { now - $0 } ?? .zero
                results.lose(scenario, reason: reason, wallTime: wallTime).forEach(onResult)
            }
        }
        let interrupted = Task.isCancelled
        if interrupted { results.interruptUnfinished(running: schedule.inFlight).forEach(onResult) }
        return ConformanceResult(
            client: results.client,
            shard: nil,
            startedAt: startedAt,
            wallTime: ContinuousClock.now - started,
            interrupted: interrupted,
            scenarios: results.records
        )
    }

    /// How a worker ended: `how` completes "its isolation worker …".
    private struct Ending {
        var how: String
        /// The scenarios it was killed for taking too long.
        var hung: [String] = []
        /// It finished what it was given and exited with status 0.
        var isClean = false
    }

    /// Starts a worker on the assignment and follows it until it ends, is killed or the run is cancelled.
    private func work(
        on assignment: IsolationSchedule.Assignment,
        stderrFile: String,
        schedule: inout IsolationSchedule,
        results: inout IsolatedResults,
        onResult: (ScenarioRecord) -> Void
    ) async -> Ending {
        let worker: SupervisedProcess
        do {
            worker = try SupervisedProcess(
                .init(
                    arguments: workerCommand(assignment.jobs),
                    directory: FileManager.default.currentDirectoryPath,
                    environment: ProcessInfo.processInfo.environment,
                    stderrFile: stderrFile,
                    role: "isolation worker",
                    familyVariable: ProcessFamily.workerVariable,
                    longestLine: Self.longestLine
                )
            )
        } catch {
            return Ending(how: "could not be started (\(error))")
        }
        // The scenarios, then an empty line; stdin stays open, and its end tells the worker to stop.
        do {
            try await worker.send(assignment.scenarios.joined(separator: "\n") + "\n")
        } catch {
            await worker.terminate()
            return Ending(how: "did not take its scenarios (\(error))")
        }
        var lastHeard = ContinuousClock.now
        var killedBecause: Ending?
        reading: while !Task.isCancelled {
            let output = await worker.lines.next(within: .seconds(1))
            let now = ContinuousClock.now
            switch output {
            case .line(let text)?:
                lastHeard = now
                switch WorkerMessage(line: text) {
                case .starting(let scenario)?:
                    schedule.started(scenario, at: now)
                case .finished(let record, let client)?:
                    if schedule.finished(record.id) { results.finish(record, client: client).forEach(onResult) }
                case nil:
                    killedBecause = Ending(
                        how: "wrote a line that is not a worker message, \(Self.quoted(text)), and was killed"
                    )
                    break reading
                }
            case .notUTF8(_, let prefix)?:
                killedBecause = Ending(
                    how: "wrote a line that is not UTF-8 after \(Self.quoted(prefix)), and was killed"
                )
                break reading
            case .overlong(let prefix)?:
                killedBecause = Ending(
                    how:
                        "wrote a line longer than \(Self.longestLine >> 20) MiB, starting \(Self.quoted(prefix)), and was killed"
                )
                break reading
            case .endOfFile?:
                break reading
            case nil:
                let overdue = schedule.overdue(at: now, limit: hangLimit)
                if !overdue.isEmpty {
                    killedBecause = Ending(how: "was killed", hung: overdue)
                    break reading
                }
                if schedule.inFlight.isEmpty, now - lastHeard > hangLimit {
                    killedBecause = Ending(how: "said nothing for \(DurationText.format(hangLimit)) and was killed")
                    break reading
                }
            }
        }
        if Task.isCancelled {
            // The end of its input stops the worker: it shuts its adapters down and exits.
            await worker.stop(grace: .seconds(5))
            return Ending(how: "was stopped")
        }
        if let killedBecause {
            await worker.terminate()
            return killedBecause
        }
        // The end of its output: it is exiting, or has. Whatever it started and left is killed.
        let status = await worker.exitStatus(waitingUpTo: .seconds(30))
        await worker.terminate()
        let how = status.map(SupervisedProcess.describe(status:)) ?? "closed its output and was killed"
        return Ending(how: how, isClean: status == 0 && schedule.isAssignmentDone)
    }

    /// The line that says what went wrong: Swift's `…: Fatal error: …` if there is one, else
    /// the last line before the Swift runtime's crash report (`*** Signal 4: Backtracing…`, which
    /// says only where, and notes of its own such as `swift-runtime: failed to suspend thread`),
    /// else the last line.
    static func lastWords(_ stderr: String) -> String? {
        let lines = stderr.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        let said = lines.prefix { !$0.hasPrefix("*** Signal") && !$0.hasPrefix("💣") }
            .filter { !$0.isEmpty && !$0.hasPrefix("swift-runtime:") }
        guard
            let last = said.last(where: { $0.contains("Fatal error") }) ?? said.last
                ?? lines.last(where: { !$0.isEmpty })
        else { return nil }
        return last.count > 500 ? String(last.prefix(500)) + "…" : last
    }

    /// The end of a worker's stderr, short enough for a log: a crash report is long.
    private static func tail(_ text: String) -> String {
        text.count > 64 * 1024 ? "…" + String(text.suffix(64 * 1024)) : text
    }

    private static func quoted(_ text: String) -> String {
        "\"" + (text.count > 200 ? String(text.prefix(200)) + "…" : text) + "\""
    }
}
