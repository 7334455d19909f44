import ArgumentParser
import OAuthConformance

/// Scenario files as every command loads them: diagnostics on standard error, and an input
/// error (exit 2) when any of them is an error. The default path, `Scenarios`, is the installed
/// suite where the working directory has none (`InstalledSuite`).
enum ScenarioInput {
    /// `consequence` ends the error summary, e.g. "nothing was listed".
    static func load(_ paths: [String], doing consequence: String) throws -> [Scenario] {
        let loaded = ScenarioLoader.load(paths: InstalledSuite.paths(for: paths))
        for diagnostic in loaded.diagnostics { Console.error(diagnostic.description) }
        guard !loaded.hasErrors else {
            let count = loaded.diagnostics.count { $0.severity == .error }
            Console.error("conformance: \(count) error\(count == 1 ? "" : "s") in the scenario files; \(consequence)")
            throw ExitCode.inputError
        }
        return loaded.scenarios
    }
}
