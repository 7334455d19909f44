import Foundation
import Testing

@testable import OAuthConformance

@Suite("Client profile files and expected failures")
struct ClientProfileTests {
    @Test(
        "every profile shipped under Adapters/ loads without a problem",
        arguments: AdapterSuiteTests.shippedProfiles()
    )
    func shippedProfilesLoad(_ file: String) throws {
        let loaded = AdapterProfileLoader.load(path: AdapterSuiteTests.adapters.appendingPathComponent(file).path)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.description))")
    }

    @Test("a full profile: command relative to its folder, policies, timeouts, expected failures")
    func fullProfile() throws {
        let folder = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("bin"),
            withIntermediateDirectories: true
        )
        let program = folder.appendingPathComponent("bin/adapter").path
        #expect(
            FileManager.default.createFile(
                atPath: program,
                contents: Data("#!/bin/sh\n".utf8),
                attributes: [.posixPermissions: 0o755]
            )
        )
        let loaded = AdapterProfileLoader.decode(
            """
            profile: 1
            name: mylib
            adapter:
              command: [bin/adapter, --verbose]
              environment: { LOG: debug }
            capabilities: [proactive_refresh, concurrency]
            policies: { refresh_window: 30s, missing_expires_in: 1h }
            timeouts: { operation: 2s }
            expected_failures:
              - { scenario: "concurrency/*", reason: no single flight }
            """,
            file: folder.appendingPathComponent("mylib.yaml").path
        )
        let profile = try #require(loaded.profile, "\(loaded.diagnostics)")
        #expect(
            profile.command == [folder.appendingPathComponent("bin/adapter").standardizedFileURL.path, "--verbose"]
        )
        #expect(profile.directory == folder.standardizedFileURL.path)
        #expect(profile.environment == ["LOG": "debug"])
        #expect(profile.capabilities == [.proactiveRefresh, .concurrency])
        #expect(profile.refreshWindow == .seconds(30))
        #expect(profile.missingExpiresIn == .assumedLifetime(.seconds(3_600)))
        #expect(profile.timeouts == .init(start: .seconds(30), operation: .seconds(2), scenario: .seconds(120)))
        #expect(profile.expectedFailures == [ExpectedFailure(scenario: "concurrency/*", reason: "no single flight")])
        #expect(
            AdapterProfileLoader.decode(
                "profile: 1\nadapter: { command: ./run.sh a b }\ncapabilities: []\n",
                file: "x.yaml"
            ).profile?.command == ["/bin/sh", "-c", "./run.sh a b"]
        )
    }

    @Test(
        "sign_in lists the ways the client signs in, in order, and declares what they imply; client_type its registration"
    )
    func signInAndClientType() throws {
        func load(_ extra: String) -> AdapterProfileLoader.Result {
            AdapterProfileLoader.decode(
                "profile: 1\nadapter: { command: ./run.sh }\ncapabilities: [concurrency]\n" + extra,
                file: "p.yaml"
            )
        }
        let declared = try #require(load("sign_in: [device, tokens]\nclient_type: public\n").profile)
        #expect(declared.signInMethods == [.device, .tokens])
        #expect(declared.clientType == .public)
        #expect(declared.capabilities == [.concurrency, .deviceGrant])
        let silent = try #require(load("").profile)
        #expect(silent.signInMethods == [.password])
        #expect(silent.clientType == .confidential)
        #expect(
            load("sign_in: [tokens, tokens]\n").diagnostics.map(\.description) == [
                "p.yaml:4:19: error: sign_in lists tokens twice"
            ]
        )
        #expect(
            load("sign_in: []\n").diagnostics.first?.description.hasPrefix("p.yaml:4:10: error: sign_in lists how")
                == true
        )
        #expect(
            load("sign_in: [browser]\n").diagnostics.first?.description.hasPrefix(
                "p.yaml:4:11: error: 'browser' is not a valid sign-in method"
            ) == true
        )
        #expect(
            load("client_type: private\n").diagnostics.first?.description.hasPrefix(
                "p.yaml:4:14: error: 'private' is not a valid client_type"
            ) == true
        )
        #expect(
            load("sign_in: [openid]\n").diagnostics.contains {
                $0.description.contains("openid needs policies.id_token_signature")
            }
        )
    }

    @Test("a refresh window of a second or less is refused: it holds no call of the window scenarios")
    func windowTooShort() {
        let loaded = AdapterProfileLoader.decode(
            "profile: 1\nadapter: { command: [/bin/true] }\ncapabilities: [proactive_refresh]\npolicies: { refresh_window: 0s }\n",
            file: "p.yaml"
        )
        #expect(
            loaded.diagnostics.map(\.description) == [
                "p.yaml:4:29: error: refresh_window must be longer than 1s; a client that refreshes only once its token has expired declares no proactive_refresh and no window"
            ]
        )
        let twoSeconds = AdapterProfileLoader.decode(
            "profile: 1\nadapter: { command: [/bin/true] }\ncapabilities: [proactive_refresh]\npolicies: { refresh_window: 2s }\n",
            file: "p.yaml"
        )
        #expect(twoSeconds.diagnostics.isEmpty)
    }

    @Test("every problem of a profile is reported at its line and column")
    func diagnostics() {
        let loaded = AdapterProfileLoader.decode(
            """
            profile: 2
            adapter:
              command: []
              faketime_library: /x
            capabilities: [proactive_refresh, virtual_clok]
            timeouts: { operation: 0s }
            expected_failures:
              - scenario: a/b
            """,
            file: "p.yaml"
        )
        let messages = loaded.diagnostics.map(\.description)
        #expect(loaded.profile == nil)
        #expect(
            messages.contains("p.yaml:1:10: error: profile format 2 is not supported; this harness reads profile: 1")
        )
        #expect(messages.contains("p.yaml:3:12: error: adapter.command is empty"))
        #expect(messages.contains("p.yaml:4:21: error: adapter.faketime_library is used only with faketime: true"))
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "p.yaml:5:35: error: 'virtual_clok' is not a valid capability; did you mean 'virtual_clock'?"
                )
            }
        )
        #expect(
            messages.contains { $0.hasPrefix("p.yaml:5:15: error: proactive_refresh needs policies.refresh_window") }
        )
        #expect(messages.contains("p.yaml:6:24: error: timeouts.operation must be longer than 0s"))
        #expect(messages.contains { $0.hasPrefix("p.yaml:8:5: error: an expected failure is missing 'reason'") })
    }

    @Test(
        "an adapter program that is not there is one error at the command, with the profile's install command; nothing runs"
    )
    func missingAdapterProgram() throws {
        let folder = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("p.yaml").path
        let profile =
            "profile: 1\nadapter:\n  command: [.venv/bin/python, adapter.py]\n  install: ./install.sh\ncapabilities: []\n"
        let missing = AdapterProfileLoader.decode(profile, file: file)
        #expect(missing.profile == nil)
        #expect(
            missing.diagnostics.map(\.description) == [
                "\(file):3:12: error: adapter.command: \(folder.path)/.venv/bin/python is not there to run (no such file, or not executable); "
                    + "install the adapter first: ./install.sh"
            ]
        )
        let onPath = AdapterProfileLoader.decode(
            "profile: 1\nadapter: { command: [no-such-program-anywhere] }\ncapabilities: []\n",
            file: file
        )
        #expect(
            onPath.diagnostics.map(\.description).first?.contains("no-such-program-anywhere is not there to run")
                == true
        )
        #expect(
            AdapterProfileLoader.decode(
                "profile: 1\nadapter: { command: [python3, a.py] }\ncapabilities: []\n",
                file: file
            ).profile != nil
        )
    }

    @Test(
        "expected failures: a listed failure is expected, a listed pass fails, an error or skip and an unlisted result are left alone"
    )
    func expectedFailures() throws {
        let scenario = try ScriptAdapter.scenario("errors/token-error-surfaced/invalid_grant")
        func result(_ verdict: Verdict) -> ScenarioResult {
            ScenarioResult(scenario: scenario, verdict: verdict, checks: [], transcript: nil, wallTime: .zero)
        }
        let listed = ExpectedFailures([ExpectedFailure(scenario: "errors/token-error-surfaced/*", reason: "known gap")])
        #expect(listed.apply(to: result(.failed)).verdict == .expectedFailure(reason: "known gap"))
        // An error is no verdict on behaviour (a missing interpreter, a crashed adapter): never hidden by the list.
        #expect(listed.apply(to: result(.error("hung"))).verdict == .error("hung"))
        #expect(listed.apply(to: result(.skipped(reason: "r"))).verdict == .skipped(reason: "r"))
        let passing = listed.apply(to: result(.passed))
        #expect(passing.verdict == .failed)
        #expect(
            passing.failedChecks.map(\.summary) == [
                "listed in the profile's expected_failures as \"errors/token-error-surfaced/*\": expected the scenario fails (known gap), observed it passed: remove it from expected_failures"
            ]
        )
        #expect(ExpectedFailures([]).apply(to: result(.failed)).verdict == .failed)
        #expect(listed.unmatched(by: ["errors/other"]).count == 1)
        #expect(ExpectedFailure(scenario: "a*c", reason: "").matches("abbbc"))
        #expect(!ExpectedFailure(scenario: "a*c", reason: "").matches("abcd"))
    }

    @Test(
        "an expected failure is an XFAIL on the console, a skipped case in valid JUnit with the explanation, and no CI failure"
    )
    func expectedFailureInReports() async throws {
        let failing = try Fixtures.builtInScenario(JUnitReportTests.refreshOn401)
        var factory = try Fixtures.defect("stale-token-replay").factory
        factory.profile.expectedFailures = [ExpectedFailure(scenario: failing.id, reason: "known gap")]
        let result = await ScenarioRunner().run(failing, with: factory)
        #expect(result.verdict == .expectedFailure(reason: "known gap"))
        #expect(!result.failedChecks.isEmpty)
        let run = SuiteRun(profile: factory.profile, results: [result], startedAt: Date(), wallTime: .zero)
        #expect(run.conforms)
        let conformance = ConformanceResult(run)
        #expect(conformance.conforms)
        #expect(conformance.tally == "0 passed, 0 failed, 0 skipped, 0 errors, 1 expected failures")
        #expect(ConsoleReport().line(for: result).hasPrefix("XFAIL  \(failing.id)  (expected failure: known gap)"))
        #expect(ConsoleReport().table(for: conformance).first == "area   passed  failed  skipped  errors  xfail")
        #expect(MarkdownReport().render([conformance]).contains("### Expected failures"))
        let junit = JUnitReport().render(conformance).text
        #expect(junit.contains(#"<skipped message="expected failure: known gap">"#))
        #expect(junit.contains("✗ resource request no. 2 carries access_token#2"))
        #expect(!junit.contains("<failure"))
        let validation = try await JUnitReportTests.validate(junit)
        #expect(validation.status == 0, "\(validation.standardError)")
    }
}

@Suite("The in-process API")
struct InProcessAPITests {
    @Test("one call runs the built-in suite against a Swift client and writes the JUnit report")
    func oneCall() async throws {
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let junit = scratch.appendingPathComponent("junit.xml").path
        let run = try await ConformanceTest.run(
            ReferenceClientFactory(),
            scenarios: [PackageFiles.scenarios.path],
            junit: junit
        )
        #expect(run.conforms, "\(run.problems)")
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<testsuites"))
        let failing = try await ConformanceTest.run(
            try Fixtures.defect("no-refresh-on-401").factory,
            scenarios: [PackageFiles.scenarios.path]
        )
        #expect(!failing.conforms)
        #expect(failing.problems.contains { $0.hasPrefix("retry/401-on-valid-token-refreshes-once-and-replays: ") })
    }

    @Test("invalid scenario files throw every problem in them")
    func invalidFiles() async throws {
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("conformance: 1\nid: x\n".utf8).write(to: scratch.appendingPathComponent("bad.yaml"))
        await #expect(throws: ConformanceTest.ScenarioFilesInvalid.self) {
            try await ConformanceTest.run(ReferenceClientFactory(), scenarios: [scratch.path])
        }
    }
}
