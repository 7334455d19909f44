import Foundation
import Testing

@testable import OAuthConformance

/// The built-in suite through real adapter processes: the reference client out of process gives
/// the verdicts it gives in process, and the Python libraries' profiles keep CI green with their
/// expected failures honoured.
@Suite("Adapters under Adapters/")
struct AdapterSuiteTests {
    static let adapters = PackageFiles.root.appendingPathComponent("Adapters")

    /// The Swift profile, with the reference-adapter built beside these tests.
    static func referenceProfile() throws -> AdapterProfile {
        let loaded = AdapterProfileLoader.load(path: adapters.appendingPathComponent("swift/reference.yaml").path)
        var profile = try #require(loaded.profile, "\(loaded.diagnostics)")
        profile.command = [PackageFiles.referenceAdapterExecutable.path] + profile.command.dropFirst()
        return profile
    }

    /// What a verdict is, without the wording of a problem: runs in and out of process differ in
    /// wall time, nothing else.
    static func summary(_ result: ScenarioResult) -> String {
        let failed = result.failedChecks.map(\.statement).joined(separator: "; ")
        return switch result.verdict {
        case .passed: "passed"
        case .failed: "failed: \(failed)"
        case .skipped(let reason): "skipped: \(reason)"
        case .inconclusive(let reason): "inconclusive: \(reason)"
        case .error(let problem): "error: \(problem)"
        case .expectedFailure(let reason): "expected failure: \(reason)"
        case .toleratedFailure(let reason): "tolerated failure: \(reason)"
        }
    }

    @Test(
        "the reference client gives the same verdict on every built-in scenario in process and as an adapter process",
        arguments: [nil, "no-single-flight", "no-refresh-on-401"]
    )
    func referenceAdapterMatchesInProcess(defect: String?) async throws {
        let scenarios = try Fixtures.builtInScenarios()
        var profile = try Self.referenceProfile()
        let inProcess: any ClientFactory
        if let defect {
            inProcess = try Fixtures.defect(defect).factory
            profile.command += ["--defect", defect]
        } else {
            inProcess = ReferenceClientFactory()
        }
        let adapter = AdapterClientFactory(profile: profile)
        let direct = await SuiteRunner().run(scenarios, with: inProcess)
        let viaAdapter = await SuiteRunner(scenarioRunner: profile.scenarioRunner).run(scenarios, with: adapter)
        await adapter.stop()
        #expect(viaAdapter.results.count == scenarios.count)
        for (one, other) in zip(direct.results, viaAdapter.results) {
            #expect(Self.summary(one) == Self.summary(other), "\(one.scenario.id)")
        }
        #expect(adapter.profile.capabilities == inProcess.profile.capabilities)
        #expect(adapter.profile.version == Harness.version)
        if defect == nil { #expect(viaAdapter.conforms) } else { #expect(!viaAdapter.conforms) }
    }

    /// The real client libraries the harness ships adapters for, by profile under Adapters/. Each
    /// install script has run (scripts/test runs them all).
    static let libraryProfiles = [
        "python/authlib.yaml",
        "python/authlib-async.yaml",
        "python/requests-oauthlib.yaml",
        "python/requests-oauth2client.yaml",
        "python/google-auth-oauthlib.yaml",
        "python/mcp.yaml",
        "go/x-oauth2.yaml",
        "go-cli-oauth/cli-oauth.yaml",
        "java/google-oauth-client.yaml",
        "c/iddawc.yaml",
        "rust/oauth2-rs.yaml",
        "perl/lwp-authen-oauth2.yaml",
        "ruby/oauth2-gem.yaml",
        "ruby/openid-connect.yaml",
    ]

    /// Every profile under Adapters/ (`python/authlib.yaml`, …), found by listing, so that a new one
    /// cannot be left out of the tests that load them.
    static func shippedProfiles() -> [String] {
        let root = adapters.standardizedFileURL.path + "/"
        let files = FileManager.default.enumerator(at: adapters, includingPropertiesForKeys: nil)
        return (files?.allObjects as? [URL] ?? [])
            .map { $0.standardizedFileURL.path }
            .filter {
                $0.hasSuffix(".yaml") && !$0.contains("/.venv/") && !$0.contains("/.venv-mcp/")
                    && !$0.contains("/build/")
            }
            .map { String($0.dropFirst(root.count)) }
            .sorted()
    }

    /// A profile under Adapters/, once its install script has run.
    static func installedProfile(_ file: String) throws -> AdapterProfile {
        let loaded = AdapterProfileLoader.load(path: adapters.appendingPathComponent(file).path)
        return try #require(
            loaded.profile,
            "\(loaded.diagnostics.map(\.description)) (scripts/test runs every adapter's install script)"
        )
    }

    // One library at a time (each runs two scenarios at once): a dozen adapters together, JVMs
    // among them, outran their own real-time limits on a two-core machine.
    @Test(
        "a client library gives today the verdicts the committed clients table shows, for the same failed checks",
        .serialized,
        arguments: libraryProfiles
    )
    func clientLibrary(_ file: String) async throws {
        let profile = try Self.installedProfile(file)
        let factory = AdapterClientFactory(profile: profile)
        // Each scenario has its own provider, clock and adapter process, so two at once is safe.
        var run = await SuiteRunner(scenarioRunner: profile.scenarioRunner, jobs: 2).run(
            try Fixtures.builtInScenarios(),
            with: factory
        )
        await factory.stop()
        run.profileFile = "Adapters/\(file)"
        let now = ConformanceResult(run)
        let committed = try ClientsTableFreshnessTests.committedResult(ofProfile: file)
        #expect(now.client == committed.client, "the library or its profile changed; run scripts/clients-table")
        let before = Dictionary(uniqueKeysWithValues: committed.scenarios.map { ($0.id, $0) })
        // A scenario newer than the committed results is judged by the next scripts/clients-table,
        // which also tells whether the profile must expect it to fail (conformance baseline).
        for scenario in now.scenarios {
            guard let then = before[scenario.id] else { continue }
            #expect(
                scenario.verdict == then.verdict
                    && scenario.failedChecks.map(\.leveledStatement) == then.failedChecks.map(\.leveledStatement),
                """
                \(scenario.id): now \(scenario.verdict.label) \(scenario.failedChecks.map(\.leveledStatement)) \
                \(scenario.reason ?? ""), committed \(then.verdict.label) \(then.failedChecks.map(\.leveledStatement))
                """
            )
        }
        #expect(now.scenarios.contains { $0.verdict == .passed })
        // Every listed expected failure still names a scenario.
        #expect(ExpectedFailures(profile.expectedFailures).unmatched(by: now.scenarios.map(\.id)).isEmpty)
        // The conformance table names each library by the name and version its adapter reports.
        #expect(!run.profile.name.isEmpty && !run.profile.version.isEmpty && run.profile.version != Harness.version)
    }

    /// The public table publishes what a profile claims about its library only with a probe that
    /// confirms it without the harness: each shipped library's claims have one, and each probe,
    /// run as `conformance probe` runs it, confirms its claim.
    @Test(
        "every claim a shipped library's profile makes has a probe, and every probe confirms it",
        .serialized,
        arguments: libraryProfiles
    )
    func libraryClaimsConfirmedByProbes(_ file: String) async throws {
        let profile = try Self.installedProfile(file)
        let claims = ProbedClaims(profile.expectedFailures)
        #expect(
            claims.unprobed.isEmpty,
            "claims without a probe: \(claims.unprobed.map { "\($0.scenario): \($0.reason)" })"
        )
        // Two at a time: each probe is a small program with a server of its own.
        let runs = await withTaskGroup(of: ProbeRun.self) { group in
            var runs: [ProbeRun] = []
            var pending = claims.byProbe.map(\.probe)[...]
            for _ in 0..<2 {
                guard let probe = pending.popFirst() else { break }
                group.addTask { await ProbeRun.run(probe) }
            }
            for await run in group {
                runs.append(run)
                if let probe = pending.popFirst() { group.addTask { await ProbeRun.run(probe) } }
            }
            return runs
        }
        for run in runs where !run.outcome.isConfirmed {
            Issue.record("\(file): \(run.probe.text): \(run.outcome)\n\(run.output.suffix(20).joined(separator: "\n"))")
        }
    }

    /// A second conforming client, written apart from the reference client and unlike it wherever
    /// the RFCs allow (callers wait for a refresh under way; no proactive refresh at all, or a
    /// five-minute window; client authentication in the body; one bounded retry after a 5xx; in
    /// Python, out of process, under libfaketime). A scenario it fails is a defect of the scenario.
    static let independentProfiles = ["independent-reactive.yaml", "independent-proactive.yaml"]

    @Test(
        "the independent conforming client passes every scenario it declares, in both of its designs, with no expected failures",
        arguments: independentProfiles
    )
    func independentClientConforms(_ file: String) async throws {
        let profile = try Self.installedProfile("python/\(file)")
        #expect(profile.expectedFailures.isEmpty)
        let factory = AdapterClientFactory(profile: profile)
        let run = await SuiteRunner(scenarioRunner: profile.scenarioRunner, jobs: 2).run(
            try Fixtures.builtInScenarios(),
            with: factory
        )
        await factory.stop()
        for result in run.results where result.verdict != .passed {
            if case .skipped = result.verdict { continue }
            Issue.record("\(result.scenario.id): \(Self.summary(result))")
        }
        // Skipped only for what the design leaves out: pinning, private_key_jwt, the DPoP downgrade
        // it does not choose (it declares use_as_bearer), for the reactive one proactive refresh,
        // a native app's sign-in (it is handed the redirect, with no listener of its own), and an MCP
        // client's discovery, registration and 2025-03-26 fallbacks (it is no MCP client).
        let leftOut: Set<Capability> = [
            .pinning, .privateKeyJWT, .dpopDowngradeRefused, .proactiveRefresh, .mcpDiscovery,
            .dynamicRegistration, .clientIDMetadataDocument, .mcpLegacyDiscovery,
        ]
        for result in run.results {
            guard case .skipped = result.verdict else { continue }
            if result.scenario.requiredSignInMethods.contains(where: { !profile.declared.signInMethods.contains($0) }) {
                continue
            }
            let missing = Set(result.scenario.requiredCapabilities).subtracting(profile.effectiveCapabilities)
            #expect(!missing.isEmpty && missing.isSubset(of: leftOut), "\(result.scenario.id): \(result.verdict)")
        }
        #expect(run.results.count { $0.verdict == .passed } >= 95)
    }

    @Test("conformance run --client runs the suite through the profile's adapter and names it in the report")
    func commandLine() async throws {
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The shipped profile with the adapter built beside the tests.
        let profileText = try String(
            contentsOf: Self.adapters.appendingPathComponent("swift/reference.yaml"),
            encoding: .utf8
        )
        .replacingOccurrences(of: "directory: ../..", with: "directory: \(PackageFiles.root.path)")
        .replacingOccurrences(
            of: "[.build/debug/reference-adapter]",
            with: "[\(PackageFiles.referenceAdapterExecutable.path)]"
        )
        let profile = scratch.appendingPathComponent("reference.yaml")
        try Data(profileText.utf8).write(to: profile)
        let junit = scratch.appendingPathComponent("junit.xml").path
        let run = try await ProcessRun.conformance([
            "run", "--client", profile.path, "--junit", junit, "Scenarios/refresh",
        ])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains("against reference-adapter \(Harness.version)"))
        let report = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(report.contains(#"<property name="profile" value="\#(profile.path)"/>"#))
    }

    @Test("conformance run --client with a broken profile exits 2 with every problem at its line and column")
    func brokenProfile() async throws {
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let profile = scratch.appendingPathComponent("broken.yaml")
        try Data("profile: 1\nadapter: { comand: [x] }\ncapabilities: [refresh_on_404]\n".utf8).write(to: profile)
        let run = try await ProcessRun.conformance(["run", "--client", profile.path, "Scenarios/refresh"])
        #expect(run.status == 2)
        #expect(
            run.standardError.contains(
                "\(profile.path):2:12: error: unknown key 'comand' in adapter; did you mean 'command'?"
            )
        )
        #expect(
            run.standardError.contains(
                "\(profile.path):3:16: error: 'refresh_on_404' is not a valid capability; did you mean 'refresh_on_401'?"
            )
        )
        #expect(run.standardError.contains("nothing was run"))
    }

    @Test(
        "an adapter whose library is missing is one usage error before any scenario: exit 2, what is missing, how to install it"
    )
    func adapterThatCannotGreet() async throws {
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let profile = scratch.appendingPathComponent("missing-library.yaml")
        try Data(
            """
            profile: 1
            adapter:
              command: [python3, -c, "import a_library_nobody_installed"]
              install: pip install a-library-nobody-installed
            capabilities: [concurrency]

            """.utf8
        ).write(to: profile)
        let junit = scratch.appendingPathComponent("junit.xml")
        let run = try await ProcessRun.conformance([
            "run", "--client", profile.path, "--junit", junit.path, "Scenarios/retry",
        ])
        #expect(run.status == 2)
        #expect(run.standardError.contains("nothing was run: the adapter did not start"))
        #expect(run.standardError.contains("No module named 'a_library_nobody_installed'"))
        #expect(run.standardError.contains("install it and its library first: pip install a-library-nobody-installed"))
        #expect(!run.standardOutput.contains("ERROR"), "no scenario ran, so none is an error")
        #expect(!FileManager.default.fileExists(atPath: junit.path))
    }
}
