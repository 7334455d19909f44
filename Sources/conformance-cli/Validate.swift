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
        print(
            "\(scenarios.count) scenario\(scenarios.count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s"): valid"
        )
    }
}
