import Foundation
import Testing

@testable import OAuthConformance

/// docs/clients.md is a published claim about real libraries. It is rendered from the results
/// committed beside it (docs/clients/results, written by scripts/clients-table, which runs every
/// shipped library); these tests read those files and run no library, so a new scenario passes
/// them at once and reaches the table with the next run of scripts/clients-table. That the
/// committed results are what the libraries do today is AdapterSuiteTests' part.
@Suite("docs/clients.md")
struct ClientsTableFreshnessTests {
    /// The committed results, in the table's order.
    static func committedResults() throws -> [ConformanceResult] {
        let folder = PackageFiles.root.appendingPathComponent(ClientsTableResults.folder)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        let results = try files.map { try JSONReport.read(Data(contentsOf: $0), from: $0.path) }
        return ClientsTableResults.tableOrder(results)
    }

    /// The committed result of the client a profile under Adapters/ describes (`python/authlib.yaml`).
    static func committedResult(ofProfile file: String) throws -> ConformanceResult {
        let results = try committedResults()
        return try #require(
            results.first { $0.client.profileFile == "Adapters/\(file)" },
            "no committed result for Adapters/\(file) in \(ClientsTableResults.folder): run scripts/clients-table"
        )
    }

    @Test(
        "the committed table and its pages are what the committed results render (scripts/clients-table rewrites them)"
    )
    func committedTableIsCurrent() throws {
        let results = try Self.committedResults()
        #expect(results.count >= 2, "the reference client and at least one library")
        let docs = PackageFiles.root.appendingPathComponent("docs")
        let pages = ClientsTable().pages(results)
        for page in pages {
            let committed = try? String(contentsOf: docs.appendingPathComponent(page.path), encoding: .utf8)
            let firstDifference = zip(page.text.split(separator: "\n"), (committed ?? "").split(separator: "\n"))
                .first { $0 != $1 }
                .map { "now:       \($0.0)\ncommitted: \($0.1)" }
            #expect(
                page.text == committed,
                """
                docs/\(page.path) is not what \(ClientsTableResults.folder) renders; run scripts/clients-table. \
                First difference:\n\(firstDifference ?? committed == nil ? "(not committed)" : "(one is longer)")
                """
            )
        }
        // No page is left of a client or a family that is gone.
        let folder = docs.appendingPathComponent("clients")
        let committedPages =
            (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension == "md" }
            .map { "clients/" + $0.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1) }
        #expect(Set(committedPages) == Set(pages.dropFirst().map(\.path)))
    }

    @Test("the committed results judge only today's scenarios, each in the family its file names")
    func committedResultsNameTodaysScenarios() throws {
        let families = Dictionary(uniqueKeysWithValues: try Fixtures.builtInScenarios().map { ($0.id, $0.family?.id) })
        for result in try Self.committedResults() {
            for scenario in result.scenarios {
                guard let family = families[scenario.id] else {
                    Issue.record(
                        "\(result.client.label): \(scenario.id) is no longer a built-in scenario; run scripts/clients-table"
                    )
                    continue
                }
                #expect(
                    scenario.family == family,
                    "\(result.client.label): \(scenario.id) is in \(scenario.family ?? "no family"), its file says \(family ?? "none"); run scripts/clients-table"
                )
            }
        }
    }

    @Test("in the committed results every failure is one the client's profile expects")
    func committedResultsConform() throws {
        for result in try Self.committedResults() {
            let broken = result.scenarios.filter { $0.verdict == .failed || $0.verdict == .error }
            #expect(broken.isEmpty, "\(result.client.label): \(broken.map(\.id))")
        }
    }
}
