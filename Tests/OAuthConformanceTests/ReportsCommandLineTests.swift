import Foundation
import Testing

@testable import OAuthConformance

/// The report options of `conformance run` and the `conformance report` command, as CI calls them.
@Suite("conformance run and report: report files")
struct ReportsCommandLineTests {
    func conformance(_ arguments: [String]) async throws -> ProcessRun {
        try await ProcessRun.run(PackageFiles.conformanceExecutable, arguments)
    }

    @Test(
        "run --json --markdown: the JSON result and the summary beside the JUnit report, a table by area on the console"
    )
    func runWritesEveryReport() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = ["junit.xml", "result.json", "summary.md"].map { directory.appendingPathComponent($0).path }
        let run = try await conformance(["run", "--junit", files[0], "--json", files[1], "--markdown", files[2]])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(!run.standardOutput.contains("\u{1B}"), "no colour when the output is not a terminal")
        #expect(run.standardOutput.contains("JSON result: \(files[1])"))
        let result = try JSONReport.read(file: files[1])
        let suite = try Fixtures.builtInScenarios()
        #expect(result.scenarios.map(\.id) == suite.map(\.id) && result.conforms && result.shard == nil)
        #expect(
            run.standardOutput.contains(ConsoleReport().table(for: result).joined(separator: "\n") + "\n"),
            "the table by area, before the totals"
        )
        let total = suite.count
        let skipped = suite.count(where: Fixtures.writtenForAnotherPolicy)
        #expect(
            try String(contentsOfFile: files[2], encoding: .utf8).contains(
                "✅ \(total) scenarios: \(total - skipped) passed, 0 failed, \(skipped) skipped, 0 errors"
            )
        )
    }

    @Test(
        "--shard i/n: the shards run disjoint parts of the suite; report merges them into one JUnit report and result"
    )
    func shardsMerge() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var shardFiles: [String] = []
        for index in 1...2 {
            let json = directory.appendingPathComponent("shard-\(index).json").path
            let run = try await conformance([
                "run", "--shard", "\(index)/2", "--json", json, "--junit",
                directory.appendingPathComponent("shard-\(index).xml").path,
            ])
            #expect(run.status == 0, "\(run.standardError)")
            shardFiles.append(json)
        }
        let shards = try shardFiles.map { try JSONReport.read(file: $0) }
        #expect(shards.map(\.shard) == ["1/2", "2/2"])
        let ids = shards.flatMap { $0.scenarios.map(\.id) }
        let suite = try Fixtures.builtInScenarios().map(\.id)
        #expect(
            ids.count == suite.count && Set(ids) == Set(suite),
            "the shards together are the suite, nothing twice: \(ids)"
        )

        let merged = directory.appendingPathComponent("merged.xml")
        let mergedJSON = directory.appendingPathComponent("merged.json").path
        let report = try await conformance(
            [
                "report", "--junit", merged.path, "--json", mergedJSON, "--html",
                directory.appendingPathComponent("m.html").path,
            ] + shardFiles
        )
        #expect(report.status == 0, "\(report.standardError)")
        let skipped = try Fixtures.builtInScenarios().count(where: Fixtures.writtenForAnotherPolicy)
        #expect(
            report.standardOutput.contains(
                "reference 0.1.0: \(ids.count) scenarios, \(ids.count - skipped) passed, 0 failed, \(skipped) skipped, 0 errors"
            )
        )
        let validation = try await JUnitReportTests.validate(file: merged)
        #expect(validation.status == 0, "\(validation.standardError)")
        #expect(
            try String(contentsOf: merged, encoding: .utf8).contains(
                "<testsuites name=\"OAuthConformance\" tests=\"\(ids.count)\" failures=\"0\" errors=\"0\""
            )
        )
        #expect(try JSONReport.read(file: mergedJSON).scenarios.map(\.id) == ids.sorted())
    }

    @Test("report: a matrix of two clients, the defective one failing where the suite catches it")
    func matrixOfClients() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reference = directory.appendingPathComponent("reference.json").path
        let defective = directory.appendingPathComponent("defective.json").path
        _ = try await conformance([
            "run", "--json", reference, "--junit", directory.appendingPathComponent("1.xml").path,
        ])
        _ = try await conformance([
            "run", "--defect", "stale-token-replay", "--json", defective, "--junit",
            directory.appendingPathComponent("2.xml").path,
        ])
        let page = directory.appendingPathComponent("matrix.html")
        let report = try await conformance([
            "report", "--html", page.path, "--markdown", directory.appendingPathComponent("s.md").path, reference,
            defective,
        ])
        #expect(report.status == 0, "\(report.standardError)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(
            html.contains(
                "<th class=\"client\">reference 0.1.0</th><th class=\"client\">reference+stale-token-replay 0.1.0</th>"
            )
        )
        let caught = try JSONReport.read(file: defective).scenarios.filter { $0.verdict == .failed }.map(\.id)
        #expect(caught.contains("retry/401-on-valid-token-refreshes-once-and-replays"))
        let matrix = try MatrixPageTests.matrix(html)
        #expect(
            matrix.components(separatedBy: "<button class=\"cell failed\"").count - 1 == caught.count,
            "one failed cell per scenario the defect fails"
        )
        let suite = try Fixtures.builtInScenarios()
        #expect(
            matrix.components(separatedBy: "<button class=\"cell ").count - 1 == 2 * suite.count,
            "a cell per client and scenario"
        )
    }

    @Test("report refuses results it cannot use: exit 2 and the reason")
    func reportInputErrors() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ result: ConformanceResult) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try ReportFile.write(JSONReport.render(result), to: path)
            return path
        }
        let one = try file("one.json", JSONResultTests.result(["refresh/a"]))
        let again = try file("again.json", JSONResultTests.result(["refresh/a"]))
        let other = try file("other.json", JSONResultTests.result(["refresh/a"], client: "other"))
        let future = directory.appendingPathComponent("future.json").path
        try #"{"format": 9}"#.write(toFile: future, atomically: true, encoding: .utf8)
        let html = ["--html", directory.appendingPathComponent("m.html").path]
        for (arguments, message) in [
            (
                [one, directory.appendingPathComponent("missing.json").path],
                "missing.json: error: cannot read the file"
            ),
            ([future], "future.json: error: result format 9 is not supported"),
            (
                [one, again],
                "again.json: error: scenario refresh/a for reference 1.0 is also in \(one); shards must not overlap"
            ),
            (
                ["--junit", directory.appendingPathComponent("j.xml").path, one, other],
                "--junit and --json take the results of one client; these are 2"
            ),
            ([], "Missing expected argument"),
        ] {
            let report = try await conformance(["report"] + html + arguments)
            #expect(report.status == 2, "\(arguments)")
            #expect(report.standardError.contains(message), "\(report.standardError)")
        }
    }

    @Test("a report that cannot be written does not cost the others: exit 2, the rest written")
    func unwritableReport() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let blocker = directory.appendingPathComponent("a-file")
        try "".write(to: blocker, atomically: true, encoding: .utf8)
        let json = directory.appendingPathComponent("result.json").path
        let run = try await conformance([
            "run", "--junit", blocker.appendingPathComponent("junit.xml").path, "--json", json,
        ])
        #expect(run.status == 2)
        #expect(
            run.standardError.contains("conformance: JUnit report not written to \(blocker.path)/junit.xml: "),
            "\(run.standardError)"
        )
        #expect(try JSONReport.read(file: json).scenarios.count == Fixtures.builtInScenarios().count)
    }

    @Test("an invalid --shard is a usage error", arguments: ["0/2", "3/2", "x"])
    func invalidShard(_ shard: String) async throws {
        let run = try await conformance(["run", "--shard", shard])
        #expect(run.status == 2)
    }
}
