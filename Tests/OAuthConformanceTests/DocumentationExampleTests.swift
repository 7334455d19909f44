import Foundation
import Testing

@testable import OAuthConformance

/// The examples of the scenario language's pages (docs/scenario-language.md and the reference in
/// docs/scenario-language/) cannot rot: every block fenced as `yaml scenario` is a complete
/// scenario file that loads without a diagnostic and passes on the reference client.
@Suite("The scenario language reference")
struct DocumentationExampleTests {
    /// The tutorial page, then the reference pages by name.
    static func pages() throws -> [String] {
        let folder = PackageFiles.root.appendingPathComponent("docs/scenario-language")
        let reference = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/scenario-language/\($0)" }
        return ["docs/scenario-language.md"] + reference
    }

    struct Example: CustomTestStringConvertible, Sendable {
        let page: String
        let line: Int
        let yaml: String
        var testDescription: String { "\(page), example at line \(line)" }
    }

    /// The `yaml scenario` blocks of every page, with the line each starts on.
    static func examples() throws -> [Example] {
        try pages().flatMap { try examples(in: $0) }
    }

    static func examples(in page: String) throws -> [Example] {
        let text = try String(contentsOf: PackageFiles.root.appendingPathComponent(page), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var examples: [Example] = []
        var start: Int?
        var body: [String] = []
        for (index, line) in lines.enumerated() {
            if start == nil, line == "```yaml scenario" {
                start = index + 2
                body = []
            } else if let first = start, line == "```" {
                examples.append(Example(page: page, line: first, yaml: body.joined(separator: "\n") + "\n"))
                start = nil
            } else if start != nil {
                body.append(line)
            }
        }
        return examples
    }

    static func scenarios(in example: Example) throws -> [Scenario] {
        let collector = DiagnosticCollector()
        let scenarios = ScenarioLoader.decode(
            example.yaml,
            file: "\(example.page) (example at line \(example.line))",
            diagnostics: collector
        )
        try #require(collector.diagnostics.isEmpty, "\(collector.diagnostics.map(\.description))")
        return scenarios
    }

    @Test("the reference has a runnable example for each construct of the language")
    func coversTheLanguage() throws {
        let text = try Self.examples().map(\.yaml).joined()
        let constructs =
            ScenarioDecoder.topLevelKeys.map { "\($0):" } + StepDecoder.stepActions.map { "\($0):" }
            + CheckRegistry.keys.map { "\($0):" }
            + ForbiddenCarriage.allCases.map { "carries: \($0.rawValue)" }
            + [
                "outcome:", "tokens:", "rules:", "respond:", "token_response:", "error:", "carries:", "within:",
                "parameters:", "origin:",
            ]
        let missing = constructs.filter { !text.contains($0) }
        #expect(missing.isEmpty, "no runnable example uses \(missing)")
    }

    @Test(
        "the table of checks in expect.md is what the checks document, each row and example written in the check's file"
    )
    func checkTableWrittenFromTheChecks() throws {
        let text = try String(
            contentsOf: PackageFiles.root.appendingPathComponent(CheckReferenceTable.page),
            encoding: .utf8
        )
        let rewritten = try #require(CheckReferenceTable.rewriting(text), "the page lost the table's markers")
        #expect(
            rewritten == text,
            "docs/scenario-language/expect.md's table is not what the checks document; run: swift run conformance list --format markdown --pages docs/checks"
        )
        for check in CheckRegistry.checks {
            #expect(!check.documentation.isEmpty, "\(check.key) documents no row")
            #expect(
                check.documentation.allSatisfy { $0.form.hasPrefix("`\(check.key):") },
                "each row of \(check.key) shows the check's own key"
            )
        }
        #expect(CheckReferenceTable.rewriting("no markers here") == nil)
    }

    @Test("every example loads and passes on the reference client", arguments: try examples())
    func examplePasses(_ example: Example) async throws {
        let scenarios = try Self.scenarios(in: example)
        try #require(!scenarios.isEmpty)
        for scenario in scenarios {
            let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
            #expect(
                result.verdict == .passed,
                "\(scenario.id): \(result.verdict) \(result.failedChecks.map(\.summary))"
            )
        }
    }

    @Test("example ids are unique, and differ from the built-in suite's")
    func uniqueIDs() throws {
        let ids =
            try Self.examples().flatMap { try Self.scenarios(in: $0) }.map(\.id)
            + (try Fixtures.builtInScenarios().map(\.id))
        #expect(Set(ids).count == ids.count)
    }

    @Test("the tutorial's validate output is what validate prints for the mistakes it describes")
    func tutorialValidateOutput() throws {
        let text = try String(
            contentsOf: PackageFiles.root.appendingPathComponent("docs/scenario-language.md"),
            encoding: .utf8
        )
        let tutorial = try #require(try Self.examples().first)
        let broken = tutorial.yaml
            .replacingOccurrences(of: "grant: refresh_token, call: 1", with: "grant: refresh, call: 1")
            .replacingOccurrences(
                of: "  - advance_to: expiry(access_token#1) + 10s\n  - request: GET /resource     # refresh no. 1",
                with: "  - advance_to: expiry(access_token#1) + 10\n  - request: GET /resource     # refresh no. 1"
            )
        let file = "Scenarios/refresh/null-refresh-token-keeps-previous.yaml"
        let printed = Fixtures.diagnostics(broken, file: file).map(\.description)
        #expect(printed.count == 2)
        for line in printed {
            #expect(text.contains(line + "\n"), "the tutorial does not show: \(line)")
        }
    }
}
