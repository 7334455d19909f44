import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The harness stays in charge of an adapter process: a crash, garbage on stdout, a hang or a
/// wrong protocol version each become an error verdict naming the cause, the next scenario still
/// runs, and no process is left behind.
@Suite("Adapter processes")
struct AdapterProcessTests {
    /// Runs two scenarios through the script adapter; returns both results and the adapter.
    private func runTwo(
        _ behaviour: ScriptAdapter.Behaviour,
        operationTimeout: Duration = .seconds(10)
    ) async throws -> ([ScenarioResult], ScriptAdapter) {
        let script = try ScriptAdapter()
        let profile = script.profile(behaviour, operationTimeout: operationTimeout)
        let factory = AdapterClientFactory(profile: profile)
        let scenarios = [try ScriptAdapter.scenario("errors/first"), try ScriptAdapter.scenario("errors/second")]
        let run = await SuiteRunner(scenarioRunner: profile.scenarioRunner).run(scenarios, with: factory)
        await factory.stop()
        return (run.results, script)
    }

    private func problem(_ result: ScenarioResult) -> String {
        if case .error(let problem) = result.verdict { return problem }
        Issue.record("expected an error verdict for \(result.scenario.id), got \(result.verdict)")
        return ""
    }

    @Test(
        "an adapter that answers end badly: the scenario is an error naming end, and the next scenario runs on a new process",
        arguments: [
            (
                ScriptAdapter.Behaviour.endCrashes,
                "the adapter closed its stdout without answering end: it exited with status 4"
            ),
            (.endGarbage, "the adapter wrote something that is not a JSON object to stdout: \"goodbye\""),
            (.endHangs, "the adapter did not answer end within 2s"),
            (.endRefuses, "the adapter refused end: cannot close the session"),
            (.endWrongID, "the adapter answered id"),
        ]
    )
    func badEnd(_ behaviour: ScriptAdapter.Behaviour, cause: String) async throws {
        let (results, script) = try await runTwo(behaviour, operationTimeout: .seconds(2))
        defer { script.remove() }
        let problem = problem(results[0])
        #expect(problem.hasPrefix("ending the scenario (end): "), "\(problem)")
        #expect(problem.contains(cause), "\(problem)")
        #expect(results[1].verdict == .passed)
        #expect(script.pids().count == 2)
    }

    @Test(
        "a JSON line with bytes that are not UTF-8 is a protocol fault naming the offset, not text with the bytes replaced"
    )
    func notUTF8() async throws {
        let (results, script) = try await runTwo(.notUTF8)
        defer { script.remove() }
        let problem = problem(results[0])
        #expect(problem.contains("the adapter wrote a line that is not UTF-8 (a bad byte at offset"), "\(problem)")
        #expect(problem.contains("a protocol fault"))
        #expect(results[1].verdict == .passed)
    }

    @Test(
        "a fault text with line breaks, DEL and terminal escapes stays on one console line and one Markdown list item"
    )
    func hostileFaultText() async throws {
        let (results, script) = try await runTwo(.hostileFault)
        defer { script.remove() }
        let console = ConsoleReport()
        let line = console.line(for: results[0])
        #expect(
            !line.contains("\n") && !line.contains("\r") && !line.contains("\u{7F}") && !line.contains("\u{1B}"),
            "\(line)"
        )
        #expect(line.contains(#"line one\nline two\rback\u{7F}del red end"#), "\(line)")
        for detail in console.details(for: results[0]) {
            #expect(!detail.contains("\n") && !detail.contains("\r") && !detail.contains("\u{1B}"), "\(detail)")
        }
        var result = ConformanceResult(
            SuiteRun(
                profile: results[0].transcript?.profile ?? ReferenceClientFactory().profile,
                results: results,
                startedAt: Date(),
                wallTime: .zero
            )
        )
        result.scenarios[0].verdict = .skipped
        let markdown = MarkdownReport().render([result])
        let item = try #require(markdown.split(separator: "\n").first { $0.hasPrefix("- <code>errors/first</code>") })
        #expect(item.contains(#"line one\nline two\rback\u{7F}del red end"#), "\(item)")
    }

    @Test("a well-behaved adapter passes, and one process serves both scenarios")
    func wellBehaved() async throws {
        let (results, script) = try await runTwo(.behaves)
        defer { script.remove() }
        #expect(results.map(\.verdict) == [.passed, .passed])
        #expect(script.pids().count == 1)
        #expect(script.pids().allSatisfy(processIsGone))
    }

    @Test("scenarios run side by side get a process each, and the processes are reused after")
    func sideBySide() async throws {
        let script = try ScriptAdapter()
        defer { script.remove() }
        let factory = AdapterClientFactory(profile: script.profile(.behaves))
        let scenario = try ScriptAdapter.scenario("errors/first")
        async let first = ScenarioRunner().run(scenario, with: factory)
        async let second = ScenarioRunner().run(scenario, with: factory)
        #expect(await [first.verdict, second.verdict] == [.passed, .passed])
        #expect(await ScenarioRunner().run(scenario, with: factory).verdict == .passed)
        await factory.stop()
        #expect(script.pids().count == 2)
        #expect(script.pids().allSatisfy(processIsGone))
    }

    @Test(
        "an adapter that crashes mid-scenario: an error naming the exit, its stderr in the report, the next scenario on a new process"
    )
    func crash() async throws {
        let (results, script) = try await runTwo(.crashes)
        defer { script.remove() }
        let problem = problem(results[0])
        #expect(problem.contains("step 1 (login password)"))
        #expect(problem.contains("closed its stdout without answering login"))
        #expect(problem.contains("exited with status 3"))
        let output = try #require(results[0].transcript?.clientOutput)
        #expect(output.contains("about to crash on purpose"))
        let junit = JUnitReport().render(
            SuiteRun(
                profile: ClientProfile(name: "script", version: "1", capabilities: [], refreshWindow: nil),
                results: results,
                startedAt: Date(),
                wallTime: .zero
            )
        )
        #expect(junit.text.contains("<system-err>adapter got reset\nadapter got login\nabout to crash on purpose"))
        #expect(results[1].verdict == .passed)
        #expect(script.pids().count == 2)
        #expect(script.pids().allSatisfy(processIsGone))
    }

    @Test("an adapter that prints garbage: an error quoting it, the process killed, the next scenario on a new process")
    func garbage() async throws {
        let (results, script) = try await runTwo(.garbage)
        defer { script.remove() }
        let problem = problem(results[0])
        #expect(problem.contains("not a JSON object"))
        #expect(problem.contains("this is not the protocol"))
        #expect(results[1].verdict == .passed)
        #expect(script.pids().allSatisfy(processIsGone))
    }

    @Test(
        "an adapter that hangs: a timeout naming the operation, its whole process group killed, the next scenario on a new process"
    )
    func hang() async throws {
        let (results, script) = try await runTwo(.hangs, operationTimeout: .milliseconds(700))
        defer { script.remove() }
        let problem = problem(results[0])
        #expect(problem.contains("did not answer login within 700ms"))
        #expect(problem.contains("killed its process group"))
        #expect(results[1].verdict == .passed)
        // The adapter, its helper and the second adapter: all gone, and the helper before its
        // sleep was over (a harness that waited for the group to end by itself would see it over).
        #expect(script.pids().count == 3)
        #expect(script.pids().allSatisfy(processIsGone))
        #expect(!script.helperFinished)
    }

    @Test("a helper an adapter starts in a session of its own (setsid) does not outlive the run")
    func daemonizedHelper() async throws {
        let (results, script) = try await runTwo(.daemonizes)
        defer {
            script.killLeftovers()
            script.remove()
        }
        #expect(results.allSatisfy { $0.verdict == .passed })
        let pids = script.pids()
        #expect(pids.count == 3, "the adapter and a helper for each scenario's login: \(pids)")
        // Not even zombies: the harness adopts what its adapters leave and reaps what it kills.
        for pid in pids { #expect(kill(pid, 0) != 0 && errno == ESRCH, "process \(pid) outlived the run") }
    }

    /// Signals of one kind that arrive together merge into one, so the test stops the harness,
    /// sends SIGINT and then SIGTERM, and lets it go on: it sees two signals, the second while the
    /// first is being handled, however busy the machine is.
    @Test("a second signal quits at once, and kills the adapter and its helper first")
    func quitAtOnce() async throws {
        let script = try ScriptAdapter()
        defer {
            script.killLeftovers()
            script.remove()
        }
        let profile = try script.profileFile(.hangs, operationTimeout: "300s")
        let scenario = script.folder.appendingPathComponent("scenario.yaml")
        try ScriptAdapter.scenarioText("errors/hangs").write(to: scenario, atomically: true, encoding: .utf8)
        let errors = script.folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        let harness = Process()
        harness.executableURL = PackageFiles.conformanceExecutable
        harness.arguments = ["run", "--client", profile.path, scenario.path]
        harness.standardOutput = FileHandle.nullDevice
        harness.standardError = try FileHandle(forWritingTo: errors)
        harness.standardInput = FileHandle.nullDevice
        try harness.run()
        defer { if harness.isRunning { kill(harness.processIdentifier, SIGKILL) } }

        // The adapter hangs in its login once it has started its helper.
        let started = Date()
        while harness.isRunning, script.pids().count < 2, Date().timeIntervalSince(started) < 60 {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(script.pids().count == 2, "the adapter did not start its helper")
        kill(harness.processIdentifier, SIGSTOP)
        kill(harness.processIdentifier, SIGINT)
        kill(harness.processIdentifier, SIGTERM)
        kill(harness.processIdentifier, SIGCONT)
        // Process.isRunning turns false only once every process holding a descriptor the harness
        // inherited has closed it, adapters included: watch the harness itself.
        let signalled = Date()
        while !processIsGone(harness.processIdentifier), Date().timeIntervalSince(signalled) < 30 {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(
            processIsGone(harness.processIdentifier),
            "conformance did not quit within 30 s of the second signal"
        )
        for pid in script.pids() { #expect(processIsGone(pid), "process \(pid) outlived the harness") }
        #expect(!script.helperFinished)

        while harness.isRunning, Date().timeIntervalSince(signalled) < 30 {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(!harness.isRunning)
        let standardError = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        #expect(harness.terminationReason == .exit, "\(standardError)")
        #expect([128 + SIGINT, 128 + SIGTERM].contains(harness.terminationStatus), "\(standardError)")
    }

    @Test(
        "an adapter that speaks another protocol version: every scenario an error saying so, without a new launch each"
    )
    func wrongProtocol() async throws {
        let (results, script) = try await runTwo(.wrongProtocol)
        defer { script.remove() }
        for result in results {
            let problem = problem(result)
            #expect(problem.contains("the client could not start"))
            #expect(problem.contains("speaks protocol version 2; this harness speaks version 1"))
        }
        #expect(script.pids().count == 1)
        #expect(script.pids().allSatisfy(processIsGone))
    }

    @Test("a scenario's stderr in the report is its last 64 KiB, with a note of what was cut")
    func stderrBounded() async throws {
        let (results, script) = try await runTwo(.chatty)
        defer { script.remove() }
        #expect(results.map(\.verdict) == [.passed, .passed])
        let output = try #require(results[0].transcript?.clientOutput)
        #expect(output.hasPrefix("[the first "))
        #expect(output.contains("bytes of the adapter's stderr were cut]"))
        #expect(output.hasSuffix("end of the flood\n"))
        #expect(!output.contains("start of the flood"))
        #expect(output.utf8.count < AdapterConnection.stderrLimit + 100)
    }

    @Test("a scenario's steps together get the scenario timeout, and the error says so")
    func scenarioTimeout() async throws {
        let scenario = try Fixtures.builtInScenario("refresh/keeps-refresh-token-when-response-omits-it")
        let result = await ScenarioRunner(stepTimeout: .seconds(20), scenarioTimeout: .milliseconds(300)).run(
            scenario,
            with: HangingClientFactory()
        )
        #expect(problem(result) == "step 1 (sign_in any): the scenario ran out of its 300ms of real time")
    }

    @Test("a command that cannot be started is an error verdict, not a crash")
    func missingCommand() async throws {
        var profile = try ScriptAdapter().profile(.behaves)
        profile.command = ["/nonexistent/adapter"]
        let factory = AdapterClientFactory(profile: profile)
        let result = await ScenarioRunner().run(try ScriptAdapter.scenario("errors/first"), with: factory)
        await factory.stop()
        #expect(problem(result).contains("could not start the adapter command /nonexistent/adapter"))
    }

    @Test("a profile may not claim a capability the adapter's hello does not offer")
    func unbackedCapability() async throws {
        let script = try ScriptAdapter()
        defer { script.remove() }
        var profile = script.profile(.behaves)
        profile.capabilities.insert(.refreshOn401)
        let factory = AdapterClientFactory(profile: profile)
        let result = await ScenarioRunner().run(try ScriptAdapter.scenario("errors/first"), with: factory)
        await factory.stop()
        #expect(
            problem(result).contains("the profile declares refresh_on_401, which the adapter's hello does not offer")
        )
    }

    @Test(
        "under libfaketime the adapter's time.time() is the scenario's virtual time, moved by the harness",
        .enabled(
            if: AdapterProfileLoader.fakeTimeLibraryCandidates.contains { FileManager.default.fileExists(atPath: $0) }
        )
    )
    func fakeTime() async throws {
        let script = try ScriptAdapter()
        defer { script.remove() }
        let factory = AdapterClientFactory(profile: script.profile(.behaves, fakeTime: true))
        #expect(factory.profile.capabilities.contains(.virtualClock))
        let clock = VirtualClock()
        let storage = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: storage) }
        let environment = ClientEnvironment(
            endpoints: ProviderEndpoints(baseURL: "http://127.0.0.1:1", appServerOrigin: "http://127.0.0.1:2"),
            redirectURI: "http://127.0.0.1/callback",
            client: ClientCredentials(id: "c", secret: "s"),
            user: UserCredentials(username: "u", password: "p"),
            clock: clock,
            storageDirectory: storage
        )
        let client = try await factory.makeClient(for: environment)
        let call = ClientCall.request(method: "GET", url: "http://127.0.0.1:1/resource")
        let first = await client.perform(call)
        clock.advance(by: .seconds(3_600) + .milliseconds(500))
        let second = await client.perform(call)
        await client.shutdown()
        await factory.stop()
        #expect(first == .outcome(.success(status: 200, body: "1767225600.0")))
        #expect(second == .outcome(.success(status: 200, body: "1767229200.5")))
    }

    @Test(
        "an adapter whose device_poll asks to wait 1e300 seconds: an error verdict naming the wait, and the run goes on"
    )
    func endlessWait() async throws {
        let script = try ScriptAdapter()
        defer { script.remove() }
        let profile = script.profile(.endlessWait)
        let factory = AdapterClientFactory(profile: profile)
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: device/endless-wait
            title: The adapter asks to wait longer than any run
            area: device
            level: MUST
            steps:
              - device_sign_in:
            expect:
              - every_step: succeeds
            """
        )
        let result = await ScenarioRunner().run(scenario, with: factory)
        await factory.stop()
        let shown = "\(result.verdict)"
        #expect(shown.contains("wait"), "\(shown)")
        #expect(shown.contains("1e+300"), "\(shown)")
    }
}
