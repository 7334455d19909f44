import ArgumentParser
import Foundation
import OAuthConformance

/// `conformance run`: the main job. Runs scenarios against the client, prints a line per
/// scenario, a table by area and the totals, and writes the reports. SIGINT or SIGTERM stops the
/// run: the reports are still written, with unfinished scenarios as errors, and the exit status
/// is 128 + the signal (130, 143). With `--isolate` the scenarios are judged in worker processes
/// (`conformance isolation-worker`), so that a crash of the harness costs one scenario.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Run scenarios against a client (the bundled reference client unless --client names a profile) and write a JUnit report.",
        discussion: "Exit status: 0 every scenario passed (or failed only below --fail-on), 1 one failed or errored, "
            + "2 bad input or a report not written, 130/143 interrupted by SIGINT/SIGTERM."
    )

    @Argument(help: "Scenario files or directories, searched for .yaml and .yml files.")
    var paths: [String] = Self.defaultPaths

    static let defaultPaths = ["Scenarios"]

    @OptionGroup(title: "Client and verdict")
    var target: RunTargetOptions

    @OptionGroup(title: "Reports")
    var reports: RunReportOptions

    @OptionGroup(title: "Parallel, sharded and isolated runs")
    var scheduling: RunSchedulingOptions

    func run() async throws {
        let loaded = try ScenarioInput.load(paths, doing: "nothing was run")
        let scenarios = scheduling.shard?.select(loaded) ?? loaded
        // With --isolate the workers start the client; here it only says what the client is.
        let (factory, runner, adapter) = try target.clientUnderTest()
        if let adapter {
            do {
                try await adapter.greet()
            } catch {
                Console.error("conformance: \(target.client ?? "the client profile"): nothing was run: \(error)")
                await adapter.stop()
                throw ExitCode.inputError
            }
            // The workers of --isolate start adapters of their own.
            if scheduling.isolate { await adapter.stop() }
        }
        // Against the whole built-in suite only: a part of it leaves entries unmatched on purpose.
        let wholeSuite = paths == Self.defaultPaths
        for stale in ExpectedFailures(factory.profile.expectedFailures).unmatched(by: loaded.map(\.id)) where wholeSuite
        {
            Console.error("conformance: warning: expected_failures names \(stale.scenario), which matches no scenario")
        }

        let console = ConsoleReport(
            colour: ConsoleReport.wantsColour(
                environment: ProcessInfo.processInfo.environment,
                isTerminal: isatty(STDOUT_FILENO) == 1
            )
        )
        let showsStatus = ProgressStatus.isShown(forTotal: scenarios.count, onTerminal: isatty(STDOUT_FILENO) == 1)
        let isolation =
            scheduling.isolate
            ? IsolatedSuiteRunner(
                jobs: scheduling.jobs,
                hangLimit: IsolatedSuiteRunner.hangLimit(for: runner),
                workerCommand: IsolationWorker.commandLine(paths: paths, target: target)
            ) : nil
        let suite = Task { [factory, jobs = scheduling.jobs, shard = scheduling.shard, profileFile = target.client] in
            var progress = ProgressStatus(total: scenarios.count)
            let clock = ContinuousClock()
            let start = clock.now
            func show(_ record: ScenarioRecord) {
                progress.record(record)
                if showsStatus { Console.write(ProgressStatus.erase, to: STDOUT_FILENO) }
                Console.out(console.line(for: record, progress: (progress.done, scenarios.count)))
                console.details(for: record).forEach(Console.out)
                if showsStatus { Console.write(progress.line(elapsed: clock.now - start), to: STDOUT_FILENO) }
            }
            var result: ConformanceResult
            if let isolation {
                let client = ClientRecord(factory.profile, profileFile: profileFile)
                result = await isolation.run(scenarios, client: client, onResult: show, onWorkerLost: Console.error)
                result.shard = shard?.description
            } else {
                var run = await SuiteRunner(scenarioRunner: runner, jobs: jobs).run(scenarios, with: factory) {
                    show(ScenarioRecord($0))
                }
                run.shard = shard
                run.profileFile = profileFile
                result = ConformanceResult(run)
            }
            if showsStatus { Console.write(ProgressStatus.erase, to: STDOUT_FILENO) }
            return result
        }
        let signals = InterruptSignals { suite.cancel() }
        let result = await suite.value
        await adapter?.stop()
        signals.stop()

        console.table(for: result).forEach(Console.out)
        Console.out(console.summary(of: result))
        let written = ReportOutputs(junit: reports.junit, json: reports.json, markdown: reports.markdown).write([result]
        )
        if let signal = signals.received { throw ExitCode(128 + signal) }
        if !written { throw ExitCode.inputError }
        if !result.conforms { throw ExitCode.nonConforming }
    }
}

/// What `conformance run` judges, and which failures fail it.
struct RunTargetOptions: ParsableArguments {
    /// The client under test, and the runner that suits it: an adapter's timeouts come from its
    /// profile. An adapter is started only when the first scenario asks for a client.
    func clientUnderTest() throws -> (
        factory: any ClientFactory, runner: ScenarioRunner, adapter: AdapterClientFactory?
    ) {
        guard let client else {
            let factory = DefectiveClient.catalogue.first { $0.name == defect }?.factory ?? ReferenceClientFactory()
            return (factory, ScenarioRunner(failOn: failOn), nil)
        }
        let loaded = AdapterProfileLoader.load(path: client)
        for diagnostic in loaded.diagnostics { Console.error(diagnostic.description) }
        guard let profile = loaded.profile, !loaded.hasErrors else {
            Console.error("conformance: the client profile \(client) has errors; nothing was run")
            throw ExitCode.inputError
        }
        let adapter = AdapterClientFactory(profile: profile)
        var runner = profile.scenarioRunner
        runner.failOn = failOn
        return (adapter, runner, adapter)
    }

    @Option(
        help: ArgumentHelp(
            "Run the client a profile file describes, through its adapter process (docs/adapter-protocol.md).",
            valueName: "profile.yaml"
        )
    )
    var client: String?

    @Option(
        help: ArgumentHelp(
            "The least strict level whose failed checks fail the run: must (only MUST checks), should (MUST and SHOULD) or policy (every check, the default). "
                + "A scenario failing only below it is reported as a tolerated failure (WARN), with what failed, in every report.",
            valueName: "level"
        )
    )
    var failOn: Level = .policy

    @Option(
        help: ArgumentHelp(
            "Run the reference client with one deliberate bug, to see how a failure reads (the names: conformance list --defects).",
            valueName: "name"
        )
    )
    var defect: String?

    func validate() throws {
        if let defect, !DefectiveClient.catalogue.contains(where: { $0.name == defect }) {
            throw ValidationError(
                "unknown defect '\(defect)'; known: \(DefectiveClient.catalogue.map(\.name).joined(separator: ", "))"
            )
        }
        if defect != nil, client != nil {
            throw ValidationError("--defect varies the reference client; it cannot be used with --client")
        }
    }
}

/// Where `conformance run` writes its reports.
struct RunReportOptions: ParsableArguments {
    @Option(help: "Where to write the JUnit XML report.")
    var junit = "Reports/junit.xml"

    @Option(help: "Also write the machine-readable result (JSON, format 1) here, for `conformance report`.")
    var json: String?

    @Option(help: "Also write a Markdown summary here, e.g. \"$GITHUB_STEP_SUMMARY\".")
    var markdown: String?
}

/// How `conformance run` shares the suite among CI jobs and cores, and whether it judges in
/// worker processes.
struct RunSchedulingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Run part i of n of the scenarios, for parallel CI jobs: ids sorted, every n-th from the i-th.",
            valueName: "i/n"
        )
    )
    var shard: Shard?

    @Option(help: "How many scenarios run at once; results are reported in scenario order.")
    var jobs = 1

    @Flag(
        help: ArgumentHelp(
            "Judge the scenarios in a worker process, so that a crash of the harness costs one scenario, not the run: "
                + "the scenario it was judging becomes an error naming the signal, a new worker takes the rest, and every report is written."
        )
    )
    var isolate = false

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }
}
