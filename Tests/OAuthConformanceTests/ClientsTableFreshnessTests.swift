import Foundation
import Testing

@testable import OAuthConformance

/// docs/clients.md is a published claim about real libraries: it must say what the libraries do
/// today, through today's scenarios. It is rendered again from this test run's own runs of every
/// shipped client (shared with the tests that judge each library) and compared with the file.
@Suite("docs/clients.md")
struct ClientsTableFreshnessTests {
    @Test("the committed table is what the shipped clients' runs render now (scripts/clients-table rewrites it)")
    func committedTableIsCurrent() async throws {
        let reference = await SuiteRunner(jobs: 2).run(try Fixtures.builtInScenarios(), with: ReferenceClientFactory())
        var results = [ConformanceResult(reference)]
        // The order scripts/clients-table runs them in: the reference client, then profiles by path.
        for file in AdapterSuiteTests.libraryProfiles.sorted() {
            results.append(ConformanceResult(try await LibraryRuns.shared.run(file)))
        }
        let rendered = ClientsTable().render(results)
        let committed = try String(
            contentsOf: PackageFiles.root.appendingPathComponent("docs/clients.md"),
            encoding: .utf8
        )
        let firstDifference = zip(rendered.split(separator: "\n"), committed.split(separator: "\n"))
            .first { $0 != $1 }
            .map { "now:       \($0.0)\ncommitted: \($0.1)" }
        #expect(
            rendered == committed,
            "docs/clients.md is stale; run scripts/clients-table. First difference:\n\(firstDifference ?? "(one is longer)")"
        )
    }
}
