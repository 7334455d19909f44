import ArgumentParser
import OAuthConformance

/// `conformance selftest`: runs the suite against the reference client and every defective
/// client, and prints who was caught by what.
struct SelftestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: "Prove the suite: the reference client passes it, and every defective client is caught by it.",
        discussion:
            "Exit status: 0 when the reference client passes every scenario and every defective client fails at least one (mutation score 100%), 1 otherwise, 2 for bad input."
    )

    @Argument(help: "Scenario files or directories, searched for .yaml and .yml files.")
    var paths: [String] = ["Scenarios"]

    @Option(help: "How many scenario runs happen at once.")
    var jobs = 4

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let scenarios = try ScenarioInput.load(paths, doing: "nothing was run")
        let report = await Selftest(jobs: jobs).run(scenarios)
        for line in report.table() { Console.out(line) }
        Console.out(report.summary)
        if !report.succeeded { throw ExitCode.nonConforming }
    }
}
