import ArgumentParser
import OAuthConformance

/// `conformance explain ID`: one scenario in prose.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Explain a scenario: what the provider does, the steps, what a conforming client must do, the spec and the level."
    )

    @Argument(help: "The scenario id, e.g. retry/401-on-valid-token-refreshes-once-and-replays.")
    var id: String

    @Option(name: .customLong("scenarios"), help: "Scenario files or directories to look in (default: Scenarios).")
    var paths: [String] = []

    func run() throws {
        let scenarios = try ScenarioInput.load(paths.isEmpty ? ["Scenarios"] : paths, doing: "nothing was explained")
        guard let scenario = scenarios.first(where: { $0.id == id }) else {
            // A matrix scenario's base id, or part of an id, lists the candidates.
            let candidates = scenarios.map(\.id).filter { $0.contains(id) }
            let hint =
                candidates.isEmpty
                ? "`conformance list` shows them all" : "did you mean one of: \(candidates.joined(separator: ", "))"
            Console.error("conformance: no scenario has the id '\(id)'; \(hint)")
            throw ExitCode.inputError
        }
        print(ScenarioExplanation.text(for: scenario))
    }
}
