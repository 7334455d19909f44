import ArgumentParser
import OAuthConformance

/// `conformance validate`: checks scenario files without running them, reporting every problem
/// at once as `file:line:column: error: message`.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check scenario files and report every problem as file:line:column.",
        discussion: "Exit status: 0 when every file is valid, 2 when there is a problem (all of them are printed)."
    )

    @Argument(help: "Scenario files or directories, searched for .yaml and .yml files.")
    var paths: [String] = ["Scenarios"]

    func run() throws {
        let scenarios = try ScenarioInput.load(paths, doing: "nothing else was checked")
        let files = Set(scenarios.compactMap(\.file)).count
        print("\(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s"): valid")
    }
}

/// Scenario files as the read-only commands load them: diagnostics on standard error, and an
/// input error (exit 2) when any of them is an error.
enum ScenarioInput {
    /// `consequence` ends the error summary, e.g. "nothing was listed".
    static func load(_ paths: [String], doing consequence: String) throws -> [Scenario] {
        let loaded = ScenarioLoader.load(paths: paths)
        loaded.diagnostics.forEach { Console.error($0.description) }
        guard !loaded.hasErrors else {
            let count = loaded.diagnostics.count { $0.severity == .error }
            Console.error("conformance: \(count) error\(count == 1 ? "" : "s") in the scenario files; \(consequence)")
            throw ExitCode.inputError
        }
        return loaded.scenarios
    }
}
