import Foundation
import MockProvider
import Testing
@testable import OAuthConformance

@Suite("JUnit reports")
struct JUnitReportTests {
    /// A run with every verdict: passes, a failure, a skip and an error.
    static func mixedRun() async throws -> SuiteRun {
        let scenarios = try Fixtures.builtInScenarios()
        var results = await SuiteRunner().run(scenarios, with: ReferenceClientFactory()).results
        let refreshOn401 = try Fixtures.builtInScenario("retry/401-on-valid-token-refreshes-once-and-replays")
        results.append(await ScenarioRunner().run(refreshOn401, with: try Fixtures.defect("stale-token-replay").factory))
        results.append(await ScenarioRunner().run(refreshOn401, with: ReducedProfileFactory(capabilities: [])))
        results.append(await ScenarioRunner(stepTimeout: .milliseconds(100)).run(scenarios[0], with: HangingClientFactory()))
        return SuiteRun(profile: ReferenceClientFactory().profile, results: results, startedAt: Date(), wallTime: .milliseconds(1234))
    }

    static func validate(_ xml: String) throws -> ProcessRun {
        let xmllint = try #require(ProcessRun.which("xmllint"), "xmllint is missing: scripts/test installs it (Debian libxml2-utils)")
        try #require(
            FileManager.default.fileExists(atPath: PackageFiles.junitSchema.path),
            "the JUnit schema is expected at \(PackageFiles.junitSchema.path) (shared/ beside the checkout)"
        )
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("junit.xml")
        try ReportFile.write(xml, to: report.path)
        return try ProcessRun.run(xmllint, ["--noout", "--schema", PackageFiles.junitSchema.path, report.path])
    }

    @Test("a report with passes, failures, skips and errors validates against junit-10.xsd")
    func validatesAgainstSchema() async throws {
        let xml = JUnitReport().render(try await Self.mixedRun())
        let validation = try Self.validate(xml)
        #expect(validation.status == 0, "\(validation.standardError)")
        #expect(xml.contains(#"<testsuites name="OAuthConformance" tests="6" failures="1" errors="1" time="1.234">"#))
        #expect(xml.contains(#"<testsuite name="retry" tests="3" failures="1" errors="0" skipped="1""#))
        #expect(xml.contains(#"<skipped message="the client does not declare refresh_on_401">"#))
        #expect(xml.contains(#"<error message="step 1 (login password): the client did not answer within"#))
    }

    @Test("a failure names the broken expectation and shows expected, observed and the timeline")
    func failureExplainsItself() async throws {
        let xml = JUnitReport().render(try await Self.mixedRun())
        #expect(xml.contains(#"<failure message="resource request no. 2 carries access_token#2: expected access_token#2 (at-2), observed at-1 (access_token#1) at #4 t=+0s" type="carries">"#))
        #expect(xml.contains("  expected: access_token#2 (at-2)"))
        #expect(xml.contains("&gt;   t=+0s  #4 GET /resource Bearer at-1 → 200"))
    }

    @Test("anything a client prints is made safe for XML 1.0")
    func escapesHostileText() throws {
        let hostile = "<b>\"quoted\" & ]]> \u{1B}[31mred\u{1B}[0m \u{0}\u{8}\u{FFFE} end"
        #expect(XMLText.escaped(hostile) == "&lt;b&gt;\"quoted\" &amp; ]]&gt; red  end")
        #expect(XMLText.escaped("a\"b\nc", forAttribute: true) == "a&quot;b&#10;c")
        let scenario = Scenario(id: "security/hostile", title: hostile, area: .security, level: .must, steps: [], expectations: [])
        let failing = CheckResult(kind: "count", statement: hostile, passed: false, expected: hostile, observed: hostile)
        let result = ScenarioResult(scenario: scenario, verdict: .failed, checks: [failing], transcript: nil, wallTime: .milliseconds(5))
        let run = SuiteRun(profile: ReferenceClientFactory().profile, results: [result], startedAt: Date(), wallTime: .milliseconds(5))
        let validation = try Self.validate(JUnitReport().render(run))
        #expect(validation.status == 0, "\(validation.standardError)")
    }

    @Test("times have three decimals and a dot in every locale", arguments: [
        (0.0, "0.000"), (0.0004, "0.000"), (0.0126, "0.013"), (1.5, "1.500"), (61.25, "61.250"), (-1.0, "0.000"),
    ])
    func seconds(_ value: Double, _ text: String) {
        #expect(JUnitReport.seconds(value) == text)
    }
}
