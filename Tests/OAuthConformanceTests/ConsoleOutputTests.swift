import Foundation
import Testing

@testable import OAuthConformance

/// What a person reads of a run: help that starts with what they need, a live status on a
/// terminal, and step outcomes in the documentation's words.
@Suite("Console output")
struct ConsoleOutputTests {
    @Test("`run --help` fits a screen, essentials first, the rest grouped; the defects are listed by `list --defects`")
    func helpStartsWithTheEssentials() async throws {
        let help = try await ProcessRun.run(PackageFiles.conformanceExecutable, ["run", "--help"])
        #expect(help.status == 0)
        let lines = help.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 60, "\(lines.count) lines:\n\(help.standardOutput)")
        // The sections below the usage line, in the order a reader meets them.
        let sections = try #require(help.standardOutput.split(separator: "ARGUMENTS:").last)
        let order = [
            "CLIENT AND VERDICT:", "--client", "--fail-on", "REPORTS:", "--junit",
            "PARALLEL, SHARDED AND ISOLATED RUNS:",
            "--shard",
        ].map {
            name in sections.range(of: name)?.lowerBound
        }
        #expect(
            !order.contains(nil) && order.compactMap { $0 } == order.compactMap { $0 }.sorted(),
            "\(help.standardOutput)"
        )

        let defects = try await ProcessRun.run(PackageFiles.conformanceExecutable, ["list", "--defects"])
        #expect(defects.status == 0)
        let listed = defects.standardOutput.split(separator: "\n")
        #expect(listed.count == DefectiveClient.catalogue.count)
        for (line, defect) in zip(listed, DefectiveClient.catalogue) {
            #expect(line.hasPrefix(defect.name + " ") && line.hasSuffix("  " + defect.bug), "\(line)")
        }
    }

    @Test("on a terminal a long run keeps a status line under the results; a log gets none")
    func statusLineOnATerminalOnly() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let junit = directory.appendingPathComponent("junit.xml").path
        let transcript = directory.appendingPathComponent("typescript").path
        let command =
            "'\(PackageFiles.conformanceExecutable.path)' run Scenarios/retry Scenarios/refresh --junit '\(junit)'"
        // script(1) gives the run a pseudo-terminal, as a person's shell does.
        let onTerminal = try await ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/script"),
            ["--quiet", "--return", "--command", command, transcript]
        )
        #expect(onTerminal.status == 0, "\(onTerminal.standardOutput)\(onTerminal.standardError)")
        let shown = try String(contentsOfFile: transcript, encoding: .utf8)
        let total = try #require(shown.firstMatch(of: /\[ *1\/(\d+)\] PASS/)?.1)
        // The status after the last result, erased before the table by area.
        #expect(shown.contains("\n[\(total)/\(total)]  0 failing  "), "\(shown)")
        #expect(shown.contains(" elapsed" + ProgressStatus.erase + "area "))

        let logged = try await ProcessRun.run(
            PackageFiles.conformanceExecutable,
            ["run", "Scenarios/retry", "Scenarios/refresh", "--junit", junit]
        )
        #expect(logged.status == 0)
        #expect(!logged.standardOutput.contains("\u{1B}"))
        #expect(!logged.standardOutput.contains("elapsed"))
    }

    @Test("the status line counts what fails the run: failures and errors")
    func statusCountsFailures() throws {
        let scenario = try ScriptAdapter.scenario("errors/token-error-surfaced/invalid_grant")
        var status = ProgressStatus(total: 120)
        for verdict: Verdict in [
            .passed, .failed, .expectedFailure(reason: "r"), .error("hung"), .skipped(reason: "s"),
        ] {
            status.record(
                ScenarioResult(scenario: scenario, verdict: verdict, checks: [], transcript: nil, wallTime: .zero)
            )
        }
        #expect(status.line(elapsed: .seconds(75)) == "[  5/120]  2 failing  1m15s elapsed")
    }

    @Test("a request answered 401 reads as an answer, not a success, as the docs define success (2xx)")
    func non2xxIsNoSuccess() {
        #expect(TimelineText.describe(.client(.success(status: 401, body: ""))) == "answered 401 (not 2xx)")
        #expect(TimelineText.describe(.client(.success(status: 200, body: ""))) == "success (200)")
    }
}
