import Foundation
import Testing

@testable import OAuthConformance

/// `conformance run --isolate`: a crash of the harness while it judges a scenario costs that
/// scenario, not the run. The crash is the real thing: the worker traps (SIGILL on x86-64,
/// SIGTRAP on arm64) through the test hook `OAUTH_CONFORMANCE_CRASH_WHILE_JUDGING`.
@Suite("conformance run --isolate")
struct IsolationTests {
    static let suite = "Scenarios/concurrency"
    static let crashing = "concurrency/one-refresh-for-concurrent-401s"
    static let crashHook = "OAUTH_CONFORMANCE_CRASH_WHILE_JUDGING"

    /// A run of the built binary with extra environment, its reports in a folder of their own.
    struct Outcome {
        var run: ProcessRun
        var junit: URL
        var result: ConformanceResult?
        var markdown: String
    }

    static func conformance(_ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("junit.xml")
        let json = directory.appendingPathComponent("result.json")
        let markdown = directory.appendingPathComponent("summary.md")
        // No symbolicated backtrace for the crashes these runs provoke: for a debug binary it costs
        // 13 to 60 s of CPU per crash, which starves the tests running beside these ones of the
        // real time their clients are allowed. The runtime's "Fatal error" line is printed all the same.
        let run = try await ProcessRun.run(
            PackageFiles.conformanceExecutable,
            arguments + ["--junit", junit.path, "--json", json.path, "--markdown", markdown.path],
            environment: environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { given, _ in given }
        )
        // Kept past the folder's removal: the JUnit file is validated by the caller.
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("isolation-\(UUID().uuidString).xml")
        try? FileManager.default.copyItem(at: junit, to: kept)
        return Outcome(
            run: run,
            junit: kept,
            result: try? JSONReport.read(file: json.path),
            markdown: (try? String(contentsOf: markdown, encoding: .utf8)) ?? ""
        )
    }

    @Test(
        "a scenario whose judging crashes is an error naming the signal, the others keep their verdicts, every report is written",
        arguments: [1, 4]
    )
    func crashCostsOneScenario(jobs: Int) async throws {
        let outcome = try await Self.conformance(
            ["run", Self.suite, "--isolate", "--jobs", String(jobs)],
            environment: [Self.crashHook: Self.crashing]
        )
        defer { try? FileManager.default.removeItem(at: outcome.junit) }
        let run = outcome.run
        #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
        let result = try #require(outcome.result, "\(run.standardError)")
        #expect(result.scenarios.count == 4)
        #expect(!result.interrupted)
        let crashed = try #require(result.scenarios.first { $0.id == Self.crashing })
        #expect(crashed.verdict == .error)
        let reason = try #require(crashed.reason)
        #expect(
            reason.hasPrefix(
                "the harness crashed while judging this scenario: its isolation worker was killed by signal "
            )
        )
        #expect(reason.contains("(SIGILL)") || reason.contains("(SIGTRAP)"), "\(reason)")
        #expect(reason.contains("\(Self.crashHook) names \(Self.crashing): crashing on purpose"), "\(reason)")
        for other in result.scenarios where other.id != Self.crashing {
            #expect(other.verdict == .passed, "\(other.id): \(other.reason ?? "")")
        }

        #expect(run.standardOutput.contains("ERROR  \(Self.crashing)  the harness crashed while judging this scenario"))
        #expect(
            run.standardOutput.contains("4 scenarios against reference 0.1.0: 3 passed, 0 failed, 0 skipped, 1 errors")
        )
        #expect(run.standardError.contains("conformance: an isolation worker was killed by signal"))
        #expect(run.standardError.contains("Fatal error"), "the crash report reaches the log")

        let validation = try await JUnitReportTests.validate(file: outcome.junit)
        #expect(validation.status == 0, "\(validation.standardError)")
        let xml = try String(contentsOf: outcome.junit, encoding: .utf8)
        #expect(xml.contains(#"tests="4" failures="0" errors="1""#))
        #expect(
            xml.contains(
                #"<error message="the harness crashed while judging this scenario: its isolation worker was killed by signal"#
            )
        )
        #expect(outcome.markdown.contains(Self.crashing))
        #expect(outcome.markdown.contains("the harness crashed while judging this scenario"))
    }

    @Test("without --isolate the crash hook is never read: the run passes in one process")
    func hookIgnoredInProcess() async throws {
        let outcome = try await Self.conformance(["run", Self.suite], environment: [Self.crashHook: Self.crashing])
        defer { try? FileManager.default.removeItem(at: outcome.junit) }
        #expect(outcome.run.status == 0, "\(outcome.run.standardOutput)\(outcome.run.standardError)")
        #expect(outcome.result?.scenarios.allSatisfy { $0.verdict == .passed } == true)
    }

    @Test("a run in workers has the very result of a run in one process: verdicts, checks, timelines, client")
    func sameResultAsInProcess() async throws {
        // A scenario that fails, with its checks and marked timeline, beside ones that pass and skip.
        let arguments = ["run", "Scenarios/refresh", "--defect", "no-refresh-leeway", "--jobs", "2"]
        let inProcess = try await Self.conformance(arguments)
        let isolated = try await Self.conformance(arguments + ["--isolate"])
        defer {
            try? FileManager.default.removeItem(at: inProcess.junit)
            try? FileManager.default.removeItem(at: isolated.junit)
        }
        #expect(isolated.run.status == inProcess.run.status, "\(isolated.run.standardError)")
        let expected = try #require(inProcess.result)
        let actual = try #require(isolated.result)
        #expect(actual.client == expected.client)
        #expect(actual.scenarios.map(\.verdict).contains(.failed), "the defect fails a scenario")
        #expect(Self.withoutTimes(actual.scenarios) == Self.withoutTimes(expected.scenarios))
    }

    /// The records without what differs between any two runs: times, ports, random values.
    static func withoutTimes(_ records: [ScenarioRecord]) -> [ScenarioRecord] {
        records.map { record in
            var stable = record
            stable.milliseconds = 0
            stable.reason = record.reason.map(StableText.masked)
            stable.timeline = record.timeline?.map(StableText.masked)
            stable.clientOutput = record.clientOutput.map(StableText.masked)
            stable.checks = record.checks.map { check in
                var masked = check
                masked.expected = StableText.masked(check.expected)
                masked.observed = StableText.masked(check.observed)
                return masked
            }
            return stable
        }
    }

    @Test("an adapter's helper started before the worker crashed does not outlive the run")
    func adaptersDoNotOutliveTheirWorker() async throws {
        let script = try ScriptAdapter()
        defer {
            script.killLeftovers()
            script.remove()
        }
        let profile = try script.profileFile(.daemonizes, operationTimeout: "10s")
        let first = script.folder.appendingPathComponent("first.yaml")
        let second = script.folder.appendingPathComponent("second.yaml")
        try ScriptAdapter.scenarioText("errors/first").write(to: first, atomically: true, encoding: .utf8)
        try ScriptAdapter.scenarioText("errors/second").write(to: second, atomically: true, encoding: .utf8)
        // The first scenario starts a helper in a session of its own; the worker crashes on the
        // second while the adapter is still alive, and the adapter is left an orphan.
        let outcome = try await Self.conformance(
            ["run", first.path, second.path, "--client", profile.path, "--isolate"],
            environment: [Self.crashHook: "errors/second"]
        )
        defer { try? FileManager.default.removeItem(at: outcome.junit) }
        let result = try #require(outcome.result, "\(outcome.run.standardError)")
        #expect(result.scenarios.map(\.verdict) == [.passed, .error], "\(outcome.run.standardOutput)")
        #expect(result.client.name == "script-daemonizes")
        let pids = script.pids()
        #expect(pids.count == 2, "the adapter and the helper of its login: \(pids)")
        for pid in pids { #expect(processIsGone(pid), "process \(pid) outlived the run") }
        #expect(!script.helperFinished)
    }

    // MARK: The schedule

    // The schedule is a value that each call changes, so every answer is taken before it is checked.

    @Test("one worker at a time: the scenario in flight at a crash is lost, the next worker takes the rest")
    func crashAlone() {
        var schedule = IsolationSchedule(scenarios: ["a", "b", "c"], jobs: 1)
        let now = ContinuousClock.now
        let first = schedule.nextAssignment()
        #expect(first == .init(scenarios: ["a", "b", "c"], jobs: 1))
        schedule.started("a", at: now)
        let finishedA = schedule.finished("a")
        schedule.started("b", at: now)
        let lost = schedule.workerEnded()
        #expect(finishedA && lost.map(\.scenario) == ["b"] && lost.map(\.loss) == [.crashed])
        let second = schedule.nextAssignment()
        #expect(second == .init(scenarios: ["c"], jobs: 1))
        schedule.started("c", at: now)
        let finishedC = schedule.finished("c")
        let lostAtTheEnd = schedule.workerEnded()
        let third = schedule.nextAssignment()
        #expect(finishedC && lostAtTheEnd.isEmpty && third == nil)
    }

    @Test("several in flight at a crash: each runs again alone, and only the one that crashes alone is lost")
    func crashAmongOthers() {
        var schedule = IsolationSchedule(scenarios: ["a", "b", "c", "d"], jobs: 3)
        let now = ContinuousClock.now
        let first = schedule.nextAssignment()
        #expect(first == .init(scenarios: ["a", "b", "c", "d"], jobs: 3))
        for id in ["a", "b", "c"] { schedule.started(id, at: now) }
        let finishedB = schedule.finished("b")
        let lostAtTheCrash = schedule.workerEnded()
        #expect(finishedB && lostAtTheCrash.isEmpty, "no culprit yet")
        let suspects = schedule.nextAssignment()
        #expect(suspects == .init(scenarios: ["a", "c"], jobs: 1), "the suspects, alone")
        schedule.started("a", at: now)
        let finishedA = schedule.finished("a")
        schedule.started("c", at: now)
        let lost = schedule.workerEnded()
        #expect(finishedA && lost.map(\.scenario) == ["c"] && lost.map(\.loss) == [.crashed])
        let rest = schedule.nextAssignment()
        #expect(rest == .init(scenarios: ["d"], jobs: 3), "then the rest, side by side again")
    }

    @Test("a worker that ends before starting anything loses what it was given, and the schedule ends")
    func neverStarted() {
        var schedule = IsolationSchedule(scenarios: ["a", "b"], jobs: 2)
        _ = schedule.nextAssignment()
        let lost = schedule.workerEnded()
        #expect(lost.map(\.scenario) == ["a", "b"] && lost.allSatisfy { $0.loss == .neverStarted })
        let next = schedule.nextAssignment()
        #expect(next == nil)
    }

    @Test("a scenario in flight past the limit is overdue; the worker killed for it loses it alone")
    func hang() {
        var schedule = IsolationSchedule(scenarios: ["a", "b"], jobs: 2)
        let now = ContinuousClock.now
        _ = schedule.nextAssignment()
        schedule.started("a", at: now - .seconds(100))
        schedule.started("b", at: now)
        #expect(schedule.overdue(at: now, limit: .seconds(60)) == ["a"])
        let lost = schedule.workerEnded(hung: ["a"])
        #expect(lost.map(\.scenario) == ["a"] && lost.map(\.loss) == [.hung])
        let next = schedule.nextAssignment()
        #expect(next == .init(scenarios: ["b"], jobs: 2))
    }

    @Test("workers that crash on every scenario they start: every scenario lost, in a bounded number of workers")
    func alwaysCrashing() {
        let ids = (1...10).map { "s\($0)" }
        var schedule = IsolationSchedule(scenarios: ids, jobs: 4)
        var lost: [String] = []
        var workers = 0
        while let assignment = schedule.nextAssignment(), workers <= 3 * ids.count {
            workers += 1
            for id in assignment.scenarios.prefix(assignment.jobs) { schedule.started(id, at: .now) }
            lost += schedule.workerEnded().map(\.scenario)
        }
        #expect(workers <= 3 * ids.count, "the schedule must end")
        #expect(lost.sorted() == ids.sorted())
    }

    // MARK: The worker's lines

    @Test("a scenario's record crosses the worker's pipe on one line and reads back equal")
    func messageRoundTrip() throws {
        let record = ScenarioRecord(
            id: "refresh/x",
            title: "A title with \"quotes\"\nand a line break",
            area: "refresh",
            level: "MUST",
            spec: ["RFC 6749 §6"],
            file: "Scenarios/refresh/x.yaml",
            verdict: .failed,
            milliseconds: 12,
            checks: [
                CheckResult(kind: "count", statement: "s", passed: false, expected: "e", observed: "o", evidence: [2])
            ],
            timeline: ["t=+0s  #1 POST /token", ">   t=+0s  #2 GET /resource"],
            clientOutput: "line one\nline two"
        )
        let client = ClientRecord(name: "c", version: "1", capabilities: ["restart"], refreshWindow: "1m")
        let message = WorkerMessage.finished(record, client: client)
        #expect(!message.line.contains("\n"))
        #expect(WorkerMessage(line: message.line) == message)
        #expect(WorkerMessage(line: WorkerMessage.starting(scenario: "a/b").line) == .starting(scenario: "a/b"))
        #expect(WorkerMessage(line: "*** Signal 4: Backtracing") == nil)
        #expect(WorkerMessage(line: #"{"starting":"a","finished":null,"client":{}}"#) == nil)
    }

    @Test("the last words of a crashed worker are the line before the Swift runtime's crash report")
    func lastWords() {
        let stderr = """
            some warning
            Sources/x.swift:3: Fatal error: crashing on purpose
            swift-runtime: failed to suspend thread 16574 while processing a crash; backtraces will be missing information

            *** Signal 4: Backtracing from 0x1234... done ***

            *** Program crashed: Illegal instruction at 0x1234 ***
            Backtrace took 0.11s

            """
        #expect(IsolatedSuiteRunner.lastWords(stderr) == "Sources/x.swift:3: Fatal error: crashing on purpose")
        #expect(
            IsolatedSuiteRunner.lastWords("warning\nconformance: 1 error in the scenario files\n")
                == "conformance: 1 error in the scenario files"
        )
        #expect(IsolatedSuiteRunner.lastWords("") == nil)
    }
}
