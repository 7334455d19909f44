import Foundation
import Testing

@testable import OAuthConformance

/// `conformance selftest`, `--jobs` and `docs/checks.md` with its pages: the suite proving itself,
/// running in parallel, and documenting itself.
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

    @Test(
        "docs/checks.md and docs/checks/ are exactly the pages `conformance list --format markdown --pages docs/checks` writes for the built-in suite"
    )
    func checksPagesAreGenerated() async throws {
        let regenerate = "regenerate them with `swift run \(ChecksTable.command)`"
        let docs = PackageFiles.root.appendingPathComponent("docs")
        // The layout of docs/ around the pages: the clients' family pages decide the links to them.
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let clientFamilies = try Self.markdownFiles(in: docs.appendingPathComponent("clients/families"))
        let scratchClientFamilies = scratch.appendingPathComponent("clients/families")
        try FileManager.default.createDirectory(at: scratchClientFamilies, withIntermediateDirectories: true)
        for name in clientFamilies {
            try Data().write(to: scratchClientFamilies.appendingPathComponent(name))
        }
        let folder = scratch.appendingPathComponent("checks")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("# A family no scenario names any more\n".utf8).write(to: folder.appendingPathComponent("gone.md"))

        let run = try await ProcessRun.run(
            PackageFiles.conformanceExecutable,
            ["list", PackageFiles.scenarios.path, "--format", "markdown", "--pages", folder.path]
        )
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("removed gone.md"), "\(run.standardOutput)")
        let written = try Self.checksPages(in: scratch)
        let committed = try Self.checksPages(in: docs)
        for page in written {
            let text = try String(contentsOf: scratch.appendingPathComponent(page), encoding: .utf8)
            guard let committedText = try? String(contentsOf: docs.appendingPathComponent(page), encoding: .utf8)
            else {
                Issue.record("docs/\(page) is missing: \(regenerate)")
                continue
            }
            // Not #expect(==), which would print both pages whole.
            if committedText != text { Issue.record("docs/\(page) is stale: \(regenerate)") }
        }
        for page in committed where !written.contains(page) {
            Issue.record("docs/\(page) is not a page the generator writes: \(regenerate), which removes it")
        }

        let rendered = ChecksTable.pages(
            try Fixtures.builtInScenarios(),
            familiesWithClientResults: Set(clientFamilies.map { String($0.dropLast(".md".count)) })
        )
        #expect(Set(rendered.map(\.path)) == Set(written))
        for page in rendered
        where page.text != (try? String(contentsOf: scratch.appendingPathComponent(page.path), encoding: .utf8)) {
            Issue.record("ChecksTable.pages renders \(page.path) otherwise than `conformance list` wrote it")
        }
    }

    /// `checks.md` and the Markdown files in `checks/` under `folder`, as paths relative to it.
    static func checksPages(in folder: URL) throws -> [String] {
        try ["checks.md"] + markdownFiles(in: folder.appendingPathComponent("checks")).map { "checks/\($0)" }
    }

    /// The names of the Markdown files in a folder, sorted; none when it does not exist.
    static func markdownFiles(in folder: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
    }

    @Test(
        "the checks pages give one row per scenario result on its family's page, with level and source, and no raw HTML"
    )
    func checksPageRows() throws {
        let scenarios = try Fixtures.builtInScenarios()
        let pages = ChecksTable.pages(scenarios)
        for scenario in scenarios {
            let page = pages.first { $0.path == "checks/\(scenario.family?.id ?? "none").md" }
            let row = page?.text.split(separator: "\n").first { $0.hasPrefix("| `\(scenario.id)` |") }
            #expect(row.map { $0.contains("| \(scenario.level.rawValue) |") } == true, "no row for \(scenario.id)")
        }
        #expect(pages.count == BehaviourFamily.all.count + 1)
        for family in BehaviourFamily.all {
            #expect(pages[0].text.contains("| [\(family.title)](checks/\(family.id).md) |"), "\(family.id)")
        }
        #expect(!pages.contains { $0.text.contains("<html>") })
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
