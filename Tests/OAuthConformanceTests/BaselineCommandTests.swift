import Foundation
import Testing

/// `conformance baseline`: a library adopting the suite gets a green build from its first run,
/// and its profile file stays the one its maintainers wrote.
@Suite("conformance baseline")
struct BaselineCommandTests {
    static let failing = "Scenarios/retry/401-on-valid-token-refreshes-once-and-replays.yaml"
    static let passing = "Scenarios/retry/401-storm-bounded.yaml"

    func conformance(_ arguments: [String], in directory: URL) async throws -> ProcessRun {
        try await ProcessRun.run(PackageFiles.conformanceExecutable, arguments, in: directory)
    }

    /// The reference client with a bug, driven as a library's adapter is, listing a scenario it
    /// passes and one the run does not include.
    static func profile(adapter: URL) -> String {
        """
        # mylib, as its maintainers describe it.
        profile: 1
        name: mylib
        adapter:
          command: [\(adapter.path), --defect, stale-token-replay]   # a library with one bug
        capabilities: [proactive_refresh, refresh_on_401, concurrency, virtual_clock]
        policies: { refresh_window: 60s, missing_expires_in: never_expires }
        expected_failures:
          # Written by hand, long ago:
          - scenario: retry/401-storm-bounded
            reason: we used to retry forever
          - scenario: oidc/*
            reason: 'no OpenID Connect: "sign-in" is ours'   # not in this run
        timeouts: { start: 30s }   # after the list
        """ + "\n"
    }

    @Test(
        "a failing run becomes a green one: failures added with level and statement, passes dropped, the rest of the file kept"
    )
    func baselineMakesTheNextRunGreen() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = directory.appendingPathComponent("mylib.yaml")
        try Self.profile(adapter: PackageFiles.referenceAdapterExecutable).write(
            to: profile,
            atomically: true,
            encoding: .utf8
        )
        let scenarios = [Self.failing, Self.passing].map { PackageFiles.root.appendingPathComponent($0).path }
        let result = directory.appendingPathComponent("result.json").path
        let junit = directory.appendingPathComponent("junit.xml").path
        let run = ["run"] + scenarios + ["--client", profile.path, "--junit", junit, "--json", result]

        let first = try await conformance(run, in: directory)
        #expect(first.status == 1, "\(first.standardOutput)\(first.standardError)")

        let baseline = try await conformance(["baseline", profile.path, result], in: directory)
        #expect(baseline.status == 0, "\(baseline.standardOutput)\(baseline.standardError)")
        #expect(
            baseline.standardOutput.contains(
                "+ retry/401-on-valid-token-refreshes-once-and-replays  (SHOULD: resource request no. 2 carries access_token#2)"
            ),
            "\(baseline.standardOutput)"
        )
        #expect(baseline.standardOutput.contains("- retry/401-storm-bounded  (passes now)"))
        let rewritten = try String(contentsOf: profile, encoding: .utf8)
        let adapter = PackageFiles.referenceAdapterExecutable.path
        #expect(
            rewritten == """
                # mylib, as its maintainers describe it.
                profile: 1
                name: mylib
                adapter:
                  command: [\(adapter), --defect, stale-token-replay]   # a library with one bug
                capabilities: [proactive_refresh, refresh_on_401, concurrency, virtual_clock]
                policies: { refresh_window: 60s, missing_expires_in: never_expires }
                expected_failures:
                  # Written by hand, long ago:
                  - scenario: oidc/*
                    reason: 'no OpenID Connect: "sign-in" is ours'   # not in this run
                  - scenario: retry/401-on-valid-token-refreshes-once-and-replays
                    reason: 'SHOULD: resource request no. 2 carries access_token#2'
                timeouts: { start: 30s }   # after the list

                """,
            "\(rewritten)"
        )

        let second = try await conformance(run, in: directory)
        #expect(second.status == 0, "\(second.standardOutput)\(second.standardError)")
        #expect(second.standardOutput.contains("XFAIL  retry/401-on-valid-token-refreshes-once-and-replays"))

        let again = try await conformance(["baseline", profile.path, result], in: directory)
        #expect(again.status == 0)
        #expect(
            again.standardOutput.contains("expected_failures already agree with the run"),
            "\(again.standardOutput)"
        )
    }

    @Test("a result of another client is refused and the profile left unchanged")
    func resultOfAnotherClientRefused() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = directory.appendingPathComponent("mylib.yaml")
        let text = Self.profile(adapter: PackageFiles.referenceAdapterExecutable)
        try text.write(to: profile, atomically: true, encoding: .utf8)
        let result = directory.appendingPathComponent("result.json").path
        let scenario = PackageFiles.root.appendingPathComponent(Self.passing).path
        let run = try await conformance(
            ["run", scenario, "--junit", directory.appendingPathComponent("junit.xml").path, "--json", result],
            in: directory
        )
        #expect(run.status == 0)
        let baseline = try await conformance(["baseline", profile.path, result], in: directory)
        #expect(baseline.status == 2)
        #expect(
            baseline.standardError.contains("the result is of reference 0.1.0 run with the built-in reference client"),
            "\(baseline.standardError)"
        )
        #expect(try String(contentsOf: profile, encoding: .utf8) == text)
    }
}
