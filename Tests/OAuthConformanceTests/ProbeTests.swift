import Foundation
import Testing

@testable import OAuthConformance

#if canImport(Glibc)
import Glibc
#endif

/// Probes confirm what a profile claims about its library, without the harness: a claim counts as
/// confirmed only when its probe exits 0 with a last line `confirmed: …`, whatever else it does.
@Suite("Probes of a profile's claims")
struct ProbeTests {
    @Test("a profile names a probe per expected failure and the families it leaves to the application")
    func profileKeys() throws {
        let folder = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let loaded = AdapterProfileLoader.decode(
            """
            profile: 1
            adapter: { command: [/bin/true] }
            capabilities: []
            application_part:
              - { family: proactive-refresh, reason: the library never decides to refresh }
            expected_failures:
              - { scenario: "concurrency/*", reason: no single flight, probe: [.venv/bin/python, probes/flight.py, ten] }
              - { scenario: "errors/a", reason: unprobed }
            """,
            file: folder.appendingPathComponent("lib.yaml").path
        )
        let profile = try #require(loaded.profile, "\(loaded.diagnostics)")
        #expect(
            profile.expectedFailures.first?.probe
                == ProbeCommand(
                    arguments: [".venv/bin/python", "probes/flight.py", "ten"],
                    directory: folder.standardizedFileURL.path
                )
        )
        #expect(profile.expectedFailures.last?.probe == nil)
        #expect(
            profile.applicationPart == [
                ApplicationPart(family: "proactive-refresh", reason: "the library never decides to refresh")
            ]
        )
        let claims = ProbedClaims(profile.expectedFailures)
        #expect(claims.byProbe.count == 1)
        #expect(claims.unprobed.map(\.scenario) == ["errors/a"])

        func problems(_ extra: String) -> [String] {
            AdapterProfileLoader.decode(
                "profile: 1\nadapter: { command: [/bin/true] }\ncapabilities: []\n" + extra,
                file: "p.yaml"
            ).diagnostics.map(\.description)
        }
        #expect(
            problems("application_part: [{ family: refresh-window, reason: x }]").first?.hasPrefix(
                "p.yaml:4:30: error: no behaviour family is named refresh-window; the families: proactive-refresh"
            ) == true
        )
        #expect(
            problems(
                "application_part: [{ family: dpop, reason: x }, { family: dpop, reason: y }]"
            ) == ["p.yaml:4:59: error: application_part names dpop twice"]
        )
        #expect(
            problems("expected_failures: [{ scenario: a, reason: b, probe: [] }]") == [
                "p.yaml:4:54: error: probe is a program and its arguments: [.venv/bin/python, probes/x.py]"
            ]
        )
    }

    @Test(
        "a probe confirms only with exit 0 and a last line confirmed:; a refusal, a crash, another status or no verdict line do not",
        arguments: [
            (Int32(0), ["POST /token", "confirmed: sends it twice"], ProbeRun.Outcome.confirmed("sends it twice")),
            (1 << 8, ["not confirmed: sent it once"], .notConfirmed("sent it once")),
            (
                3 << 8, ["confirmed: but then"],
                .notConfirmed("it exited with status 3 without a last line confirmed: or not confirmed:")
            ),
            (
                0, ["confirmed: claimed", "done"],
                .notConfirmed("it exited with status 0 without a last line confirmed: or not confirmed:")
            ),
            (
                SIGKILL, ["confirmed: x"],
                .notConfirmed("it was killed by signal 9 (SIGKILL) without a last line confirmed: or not confirmed:")
            ),
            (0, ["confirmed: x", "stderr: a warning"], .confirmed("x")),
        ]
    )
    func outcomes(status: Int32, output: [String], expected: ProbeRun.Outcome) {
        #expect(ProbeRun.judge(status: status, output: output, limit: .seconds(60)) == expected)
    }

    @Test("a probe that does not end in time is killed, and confirms nothing")
    func hang() async throws {
        let folder = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = await ProbeRun.run(
            ProbeCommand(
                arguments: ["/bin/sh", "-c", "echo 'confirmed: too early'; sleep 60"],
                directory: folder.path
            ),
            limit: .seconds(2)
        )
        #expect(run.outcome == .notConfirmed("it did not end within 2s; it was killed"), "\(run.output)")
    }

    @Test("a probe runs from the profile's folder, a relative program found there, and its stderr is kept")
    func folderAndOutput() async throws {
        let folder = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("probes"),
            withIntermediateDirectories: true
        )
        let program = folder.appendingPathComponent("probes/where.sh")
        try "#!/bin/sh\necho \"ran in $(pwd)\"\necho 'library said: boom' >&2\necho 'confirmed: it ran'\n"
            .write(to: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let run = await ProbeRun.run(ProbeCommand(arguments: ["probes/where.sh"], directory: folder.path))
        #expect(run.outcome == .confirmed("it ran"))
        #expect(run.output.contains("ran in \(folder.path)"))
        #expect(run.output.contains("stderr: library said: boom"))

        let missing = await ProbeRun.run(ProbeCommand(arguments: ["probes/not-built"], directory: folder.path))
        guard case .notRun(let problem) = missing.outcome else {
            Issue.record("a missing probe program is not run: \(missing.outcome)")
            return
        }
        #expect(problem.contains("could not start the probe command"))
    }
}
