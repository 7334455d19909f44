import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

@Suite("JUnit reports")
struct JUnitReportTests {
    static let refreshOn401 = "retry/401-on-valid-token-refreshes-once-and-replays"

    /// A run with every verdict: passes, a failure, a skip and an error, from three built-in
    /// scenarios (so it does not change as the suite grows).
    static func mixedRun() async throws -> SuiteRun {
        let scenarios = try [
            "refresh/keeps-refresh-token-when-response-omits-it", "refresh/proactive-within-declared-window",
            refreshOn401,
        ]
        .map(Fixtures.builtInScenario)
        var results = await SuiteRunner().run(scenarios, with: ReferenceClientFactory()).results
        let retry = scenarios[2]
        results.append(await ScenarioRunner().run(retry, with: try Fixtures.defect("stale-token-replay").factory))
        results.append(await ScenarioRunner().run(retry, with: ReducedProfileFactory(capabilities: [])))
        results.append(
            await ScenarioRunner(stepTimeout: .milliseconds(100)).run(scenarios[0], with: HangingClientFactory())
        )
        return SuiteRun(
            profile: ReferenceClientFactory().profile,
            results: results,
            startedAt: Date(),
            wallTime: .milliseconds(1234)
        )
    }

    static func validate(_ xml: String) async throws -> ProcessRun {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("junit.xml")
        try ReportFile.write(xml, to: report.path)
        return try await validate(file: report)
    }

    static func validate(file: URL) async throws -> ProcessRun {
        let xmllint = try #require(
            ProcessRun.which("xmllint"),
            "xmllint is missing: scripts/test installs it (Debian libxml2-utils)"
        )
        try #require(
            FileManager.default.fileExists(atPath: PackageFiles.junitSchema.path),
            "the JUnit schema is expected at \(PackageFiles.junitSchema.path) (shared/ beside the checkout)"
        )
        return try await ProcessRun.run(xmllint, ["--noout", "--schema", PackageFiles.junitSchema.path, file.path])
    }

    @Test("a report with passes, failures, skips and errors validates against junit-10.xsd")
    func validatesAgainstSchema() async throws {
        let xml = JUnitReport().render(try await Self.mixedRun()).text
        let validation = try await Self.validate(xml)
        #expect(validation.status == 0, "\(validation.standardError)")
        #expect(xml.contains(#"<testsuites name="OAuthConformance" tests="6" failures="1" errors="1" time="1.234">"#))
        #expect(xml.contains(#"<testsuite name="retry" tests="3" failures="1" errors="0" skipped="1""#))
        #expect(xml.contains(#"<skipped message="the client does not declare refresh_on_401">"#))
        #expect(xml.contains(#"<error message="step 1 (sign_in any): the client did not answer within"#))
    }

    @Test("testcase names are the id and title, unique even when a scenario appears again")
    func uniqueNames() async throws {
        let xml = JUnitReport().render(try await Self.mixedRun()).text
        let title = "\(Self.refreshOn401): \(try Fixtures.builtInScenario(Self.refreshOn401).title)"
        #expect(xml.contains("<testcase name=\"\(title)\" classname=\"retry\""))
        #expect(xml.contains("<testcase name=\"\(title) (2)\" classname=\"retry\""))
        #expect(xml.contains("<testcase name=\"\(title) (3)\" classname=\"retry\""))
    }

    @Test("properties name the client, its declared profile, the harness, the seed and the shard")
    func properties() async throws {
        var run = try await Self.mixedRun()
        run.seed = 42
        run.shard = Shard("2/3")
        let xml = JUnitReport().render(run).text
        for property in [
            #"<property name="client.name" value="reference"/>"#,
            #"<property name="client.version" value="0.1.0"/>"#,
            #"<property name="client.capabilities" value="authorization_code,client_id_metadata_document,client_secret_jwt,concurrency,custom_ca,device_grant,dpop,dpop_downgrade_refused,dynamic_registration,id_token_exchange,id_token_signature,mcp_discovery,mcp_legacy_discovery,openid,pinning,private_key_jwt,proactive_refresh,pushed_authorization_requests,refresh_on_401,restart,virtual_clock"/>"#,
            #"<property name="client.refresh_window" value="1m"/>"#,
            #"<property name="profile" value="built-in"/>"#,
            "<property name=\"harness.version\" value=\"\(Harness.version)\"/>",
            #"<property name="seed" value="42"/>"#,
            #"<property name="shard" value="2/3"/>"#,
        ] {
            #expect(xml.contains(property), "\(property)")
        }
    }

    @Test("a failure names the broken expectation and shows expected, observed and the timeline")
    func failureExplainsItself() async throws {
        let xml = JUnitReport().render(try await Self.mixedRun()).text
        #expect(
            xml.contains(
                #"<failure message="resource request no. 2 carries access_token#2 [SHOULD]: expected access_token#2 (at-2), observed at-1 (access_token#1) at #4 t=+0s" type="carries">"#
            )
        )
        #expect(xml.contains("  expected: access_token#2 (at-2)"))
        #expect(xml.contains("fails at: SHOULD"))
        #expect(xml.contains("✗ resource request no. 2 carries access_token#2 [SHOULD]"))
        #expect(xml.contains("&gt;   t=+0s  #4 GET /resource Bearer at-1 → 200"))
    }

    @Test("anything a client prints is made safe for XML 1.0")
    func escapesHostileText() async throws {
        let hostile = "<b>\"quoted\" & ]]> \u{1B}[31mred\u{1B}[0m \u{0}\u{8}\u{FFFE} end"
        #expect(XMLText.escaped(hostile) == "&lt;b&gt;\"quoted\" &amp; ]]&gt; red  end")
        #expect(XMLText.escaped("a\"b\nc", forAttribute: true) == "a&quot;b&#10;c")
        let scenario = Scenario(
            id: "security/hostile",
            title: hostile,
            area: .security,
            level: .must,
            steps: [],
            expectations: []
        )
        let failing = CheckResult(
            kind: "count",
            statement: hostile,
            passed: false,
            expected: hostile,
            observed: hostile
        )
        let result = ScenarioResult(
            scenario: scenario,
            verdict: .failed,
            checks: [failing],
            transcript: nil,
            wallTime: .milliseconds(5)
        )
        let run = SuiteRun(
            profile: ReferenceClientFactory().profile,
            results: [result],
            startedAt: Date(),
            wallTime: .milliseconds(5)
        )
        let validation = try await Self.validate(JUnitReport().render(run).text)
        #expect(validation.status == 0, "\(validation.standardError)")
    }

    @Test(
        "times have three decimals and a dot in every locale",
        arguments: [
            (0, "0.000"), (1, "0.001"), (13, "0.013"), (1500, "1.500"), (61250, "61.250"), (-1000, "0.000"),
        ]
    )
    func seconds(_ milliseconds: Int, _ text: String) {
        #expect(JUnitReport.seconds(milliseconds: milliseconds) == text)
    }
}
