import ArgumentParser
import Foundation
import OAuthConformance

/// `conformance isolation-worker`, which `conformance run --isolate` starts (hidden from help):
/// reads the ids of the scenarios to judge from stdin, one a line, up to an empty line; judges
/// them as `run` would, up to `--jobs` at once; and writes on its stdout, as `WorkerMessage`
/// lines, each scenario as it starts and its result as it ends. Anything else the process would
/// print goes to stderr, so that nothing but messages can reach the run. The end of stdin (the
/// run stopped, or died) stops it: adapters are shut down and it exits.
struct IsolationWorker: AsyncParsableCommand {
    static let commandName = "isolation-worker"

    static let configuration = CommandConfiguration(
        commandName: commandName,
        abstract: "Judge scenarios for `conformance run --isolate`, which starts this command; not for use by hand.",
        shouldDisplay: false
    )

    @Argument(help: "Scenario files or directories, as `run` was given them.")
    var paths: [String]

    @OptionGroup
    var target: RunTargetOptions

    @Option(help: "How many scenarios run at once.")
    var jobs = 1

    /// The command line of a worker for `run`'s scenarios and client, running `jobs` at once.
    static func commandLine(paths: [String], target: RunTargetOptions) -> @Sendable (_ jobs: Int) -> [String] {
        var options = ["--fail-on", target.failOn.rawValue.lowercased()]
        if let client = target.client { options += ["--client", client] }
        if let defect = target.defect { options += ["--defect", defect] }
        let program = ownExecutable
        return { [options] jobs in
            [program, commandName, "--jobs", String(jobs)] + options + ["--"] + paths
        }
    }

    /// This program, to start again as a worker: the file itself, whatever PATH or the working
    /// directory say when the worker starts.
    private static var ownExecutable: String {
        Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? CommandLine.arguments[0]
    }

    func run() async throws {
        let channel = WorkerChannel.takingStandardOutput()
        let loaded = try ScenarioInput.load(paths, doing: "nothing was run")
        let byID = Dictionary(loaded.map { ($0.id, $0) }) { first, _ in first }
        let scenarios = WorkerChannel.readAssignment().compactMap { byID[$0] }
        let (factory, runner, adapter) = try target.clientUnderTest()
        let crash = CrashWhileJudging(environment: ProcessInfo.processInfo.environment)
        let suite = Task { [factory, jobs, profileFile = target.client] in
            _ = await SuiteRunner(scenarioRunner: runner, jobs: jobs).run(
                scenarios,
                with: factory,
                onStart: { scenario in
                    channel.send(.starting(scenario: scenario.id))
                    crash.trap(judging: scenario.id)
                },
                onFinish: { result in
                    let client = ClientRecord(factory.profile, profileFile: profileFile)
                    channel.send(.finished(ScenarioRecord(result), client: client))
                }
            )
        }
        WorkerChannel.onEndOfInput { suite.cancel() }
        await suite.value
        await adapter?.stop()
    }
}
