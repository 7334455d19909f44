import ArgumentParser
import OAuthConformance

/// `conformance run`: the main job. Runs scenarios against the client, prints a line per
/// scenario and the totals, and writes the JUnit report.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run scenarios against the bundled reference client and write a JUnit report."
    )

    @Argument(help: "Scenario files or directories, searched for .yaml and .yml files.")
    var paths: [String] = ["Scenarios"]

    @Option(help: "Where to write the JUnit XML report.")
    var junit = "Reports/junit.xml"

    func run() async throws {
        let loaded = ScenarioLoader.load(paths: paths)
        loaded.diagnostics.forEach { Console.error($0.description) }
        if loaded.hasErrors {
            let count = loaded.diagnostics.count { $0.severity == .error }
            Console.error("conformance: \(count) error\(count == 1 ? "" : "s") in the scenario files; nothing was run")
            throw ExitCode.inputError
        }

        let console = ConsoleReport()
        let run = await SuiteRunner().run(loaded.scenarios, with: ReferenceClientFactory()) { result in
            print(console.line(for: result))
            console.details(for: result).forEach { print($0) }
        }
        print(console.summary(of: run))
        do {
            try ReportFile.write(JUnitReport().render(run), to: junit)
            print("JUnit report: \(junit)")
        } catch {
            Console.error("conformance: \(error.localizedDescription)")
            throw ExitCode.inputError
        }
        if !run.conforms { throw ExitCode.nonConforming }
    }
}
