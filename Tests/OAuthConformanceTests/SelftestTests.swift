import Foundation
import Testing

@testable import OAuthConformance

/// `conformance selftest`, `--jobs` and `docs/checks.md`: the suite proving itself, running in
/// parallel, and documenting itself.
@Suite("Selftest, parallel runs and the checks page")
struct SelftestTests {
    static let loginOnly = """
        conformance: 1
        id: errors/login-only
        title: Logging in succeeds
        area: errors
        level: MUST
        steps: [{ login: password }]
        expect: [{ every_step: succeeds }]
        """

    @Test("a defect no scenario catches makes the self-test fail, and the table says NOT CAUGHT")
    func uncaughtDefect() async throws {
        let defect = try Fixtures.defect("no-refresh-leeway")
        let report = await Selftest(defects: [defect]).run([try Fixtures.scenario(Self.loginOnly)])
        #expect(report.reference.isAsExpected)
        #expect(!report.succeeded)
        #expect(report.mutationScore == 0)
        let table = report.table()
        #expect(table.count == 3)
        #expect(table[2].hasPrefix("reference+no-refresh-leeway"))
        #expect(table[2].contains("  no scenario ") && table[2].hasSuffix("  NOT CAUGHT"))
        #expect(report.summary.hasSuffix("mutation score 0% (0 of 1 defective clients caught)"))
    }

    @Test("a scenario the reference client fails makes the self-test fail, however many defects it catches")
    func referenceFailure() async throws {
        let impossible = Self.loginOnly.replacingOccurrences(
            of: "[{ every_step: succeeds }]",
            with: "[{ count: { endpoint: token, exactly: 5 } }]"
        )
        let report = await Selftest(defects: [try Fixtures.defect("no-refresh-leeway")]).run([
            try Fixtures.scenario(impossible)
        ])
        #expect(report.reference.verdict == "FAILS")
        #expect(report.defects[0].verdict == "caught")
        #expect(report.mutationScore == 100)
        #expect(!report.succeeded)
        #expect(report.summary.contains("(failed: errors/login-only)"))
    }

    @Test("--jobs: scenarios run in parallel come back in the order given, with the verdicts of a sequential run")
    func parallelRunKeepsOrder() async throws {
        let scenarios = try Fixtures.builtInScenarios()
        var reported: [String] = []
        let run = await SuiteRunner(jobs: 4).run(scenarios, with: ReferenceClientFactory()) {
            reported.append($0.scenario.id)
        }
        #expect(run.results.map(\.scenario.id) == scenarios.map(\.id))
        #expect(reported == scenarios.map(\.id))
        #expect(run.conforms, "\(run.results.filter { $0.verdict != .passed }.map(\.scenario.id))")
    }

    @Test("a cancelled parallel run reports every scenario, the unfinished ones as interrupted")
    func cancelledParallelRun() async throws {
        let scenarios = try Fixtures.builtInScenarios()
        let suite = Task { await SuiteRunner(jobs: 3).run(scenarios, with: ReferenceClientFactory()) }
        suite.cancel()
        let run = await suite.value
        #expect(run.interrupted)
        #expect(run.results.map(\.scenario.id) == scenarios.map(\.id))
    }

    @Test("docs/checks.md is exactly what `conformance list --format markdown` prints for the built-in suite")
    func checksPageIsGenerated() async throws {
        let run = try await ProcessRun.run(
            PackageFiles.conformanceExecutable,
            ["list", PackageFiles.scenarios.path, "--format", "markdown"]
        )
        #expect(run.status == 0, "\(run.standardError)")
        let page = try String(contentsOf: PackageFiles.root.appendingPathComponent("docs/checks.md"), encoding: .utf8)
        #expect(
            page == run.standardOutput,
            "docs/checks.md is stale: run `swift run conformance list --format markdown > docs/checks.md`"
        )
        #expect(run.standardOutput == ChecksTable.markdown(try Fixtures.builtInScenarios()))
    }

    @Test("the checks page gives one row per scenario result, with level and source, and no raw HTML")
    func checksPageRows() throws {
        let scenarios = try Fixtures.builtInScenarios()
        let page = ChecksTable.markdown(scenarios)
        for scenario in scenarios {
            let row = page.split(separator: "\n").first { $0.hasPrefix("| `\(scenario.id)` |") }
            #expect(row.map { $0.contains("| \(scenario.level.rawValue) |") } == true, "no row for \(scenario.id)")
        }
        #expect(!page.contains("<html>"))
    }

    @Test("conformance selftest prints the table and exits 1 when a defect is not caught")
    func selftestCommand() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.loginOnly.write(to: directory.appendingPathComponent("login.yaml"), atomically: true, encoding: .utf8)
        let run = try await ProcessRun.run(
            PackageFiles.conformanceExecutable,
            ["selftest", directory.path, "--jobs", "8"]
        )
        #expect(run.status == 1, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("client ") == true)
        #expect(lines.contains { $0.hasPrefix("reference ") && $0.hasSuffix("passes") })
        #expect(lines.contains { $0.hasPrefix("reference+no-refresh-leeway ") && $0.hasSuffix("NOT CAUGHT") })
        #expect(lines.last?.hasPrefix("reference client: 1 of 1 scenarios passed; mutation score") == true)
    }
}
