import Foundation
import Testing

/// The `conformance` executable as CI calls it: its exit status is the contract.
@Suite("conformance run")
struct CommandLineTests {
    func conformance(_ arguments: [String]) async throws -> ProcessRun {
        try await ProcessRun.run(PackageFiles.conformanceExecutable, arguments)
    }

    @Test("the built-in suite passes: exit 0, a line per scenario, the summary and a report")
    func builtInSuitePasses() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("nested/junit.xml")
        let run = try await conformance(["run", "--junit", report.path])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("PASS   refresh/keeps-refresh-token-when-response-omits-it"))
        let suite = try Fixtures.builtInScenarios()
        let skipped = suite.count(where: Fixtures.writtenForAnotherPolicy)
        #expect(
            run.standardOutput.contains(
                "\(suite.count) scenarios against reference 0.1.0: \(suite.count - skipped) passed, 0 failed, \(skipped) skipped, 0 errors"
            )
        )
        #expect(FileManager.default.fileExists(atPath: report.path))
    }

    @Test("a failing scenario: exit 1, the failure explained, the report still written")
    func failingScenario() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("too-many-refreshes.yaml")
        try """
        conformance: 1
        id: retry/impossible
        title: Expects five password grants from one login
        area: retry
        level: MUST
        steps: [{ login: password }]
        expect:
          - count: { endpoint: token, grant: password, exactly: 5 }
        """.write(to: scenario, atomically: true, encoding: .utf8)
        let report = directory.appendingPathComponent("junit.xml")
        let run = try await conformance(["run", scenario.path, "--junit", report.path])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("FAIL   retry/impossible"))
        #expect(run.standardOutput.contains("fails at MUST"))
        #expect(run.standardOutput.contains("✗ number of token requests (grant password) is exactly 5 [MUST]"))
        #expect(run.standardOutput.contains("observed: 1 (#1 t=+0s)"))
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(
            xml.contains(
                "<failure message=\"number of token requests (grant password) is exactly 5 [MUST]: expected exactly 5, observed 1"
            )
        )
    }

    @Test("an invalid scenario file: exit 2, every problem as file:line:column, nothing run")
    func invalidScenario() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("broken.yaml")
        try
            "conformance: 1\nid: x\ntitle: t\narea: retyr\nlevel: MUST\nsteps: [{ login: pasword }]\nexpect: [{ every_step: succeeds }]\n"
            .write(to: scenario, atomically: true, encoding: .utf8)
        let report = directory.appendingPathComponent("junit.xml")
        let run = try await conformance(["run", scenario.path, "--junit", report.path])
        #expect(run.status == 2)
        #expect(
            run.standardError.contains(
                "\(scenario.path):4:7: error: 'retyr' is not a valid area; did you mean 'retry'?"
            )
        )
        #expect(
            run.standardError.contains(
                "\(scenario.path):6:18: error: 'pasword' is not a valid login grant; did you mean 'password'?"
            )
        )
        #expect(run.standardError.contains("2 errors in the scenario files; nothing was run"))
        #expect(!FileManager.default.fileExists(atPath: report.path))
    }

    @Test(
        "a reader that stops early (| head -1) ends the output, not the run: the report is still written and the status is the verdict's"
    )
    func closedPipe() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("junit.xml")
        let bash = try #require(ProcessRun.which("bash"))
        let run = try await ProcessRun.run(
            bash,
            [
                "-c",
                "set -o pipefail; '\(PackageFiles.conformanceExecutable.path)' run --junit '\(report.path)' | head -1 >/dev/null",
            ]
        )
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: report.path))
    }

    @Test("--defect runs a defective reference client, which the suite catches: exit 1")
    func defectiveClientFails() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await conformance([
            "run", "--defect", "stale-token-replay", "--junit", directory.appendingPathComponent("junit.xml").path,
        ])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("FAIL   retry/401-on-valid-token-refreshes-once-and-replays"))
        let summary = try #require(
            run.standardOutput.firstMatch(
                of: /(\d+) scenarios against reference\+stale-token-replay 0.1.0: (\d+) passed, (\d+) failed/
            )
        )
        #expect(Int(summary.output.1) == (try Fixtures.builtInScenarios().count))
        #expect(Int(summary.output.3)! >= 1)
    }

    @Test(
        "usage errors exit 2 with a message",
        arguments: [
            ["run", "--no-such-option"], ["run", "/no/such/path"], ["frobnicate"],
            ["run", "--defect", "no-such-defect"],
        ]
    )
    func usageErrors(_ arguments: [String]) async throws {
        let run = try await conformance(arguments)
        #expect(run.status == 2, "\(run.standardError)")
        #expect(!run.standardError.isEmpty)
    }
}
