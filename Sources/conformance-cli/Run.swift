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

    @Option(help: ArgumentHelp(
        "Run the reference client with one deliberate bug, to see how a failure reads.",
        discussion: DefectiveClient.catalogue.map { "\($0.name): \($0.bug)" }.joined(separator: "\n"),
        valueName: "name"
    ))
    var defect: String?

    func validate() throws {
        if let defect, !DefectiveClient.catalogue.contains(where: { $0.name == defect }) {
            throw ValidationError("unknown defect '\(defect)'; known: \(DefectiveClient.catalogue.map(\.name).joined(separator: ", "))")
        }
    }

    private var client: any ClientFactory {
        DefectiveClient.catalogue.first { $0.name == defect }?.factory ?? ReferenceClientFactory()
    }

    func run() async throws {
        let loaded = ScenarioLoader.load(paths: paths)
        loaded.diagnostics.forEach { Console.error($0.description) }
        if loaded.hasErrors {
            let count = loaded.diagnostics.count { $0.severity == .error }
            Console.error("conformance: \(count) error\(count == 1 ? "" : "s") in the scenario files; nothing was run")
            throw ExitCode.inputError
        }

        let console = ConsoleReport()
        let run = await SuiteRunner().run(loaded.scenarios, with: client) { result in
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
