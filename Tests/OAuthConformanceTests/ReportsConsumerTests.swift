import Foundation
import Testing

@testable import OAuthConformance

@Suite("JUnit reports read by real consumers")
struct ReportsConsumerTests {
    /// The mixed run's JUnit report, written in a directory of its own for the caller to remove.
    static func mixedReport() async throws -> (ConformanceResult, URL) {
        let result = ConformanceResult(try await JUnitReportTests.mixedRun())
        let report = try PackageFiles.temporaryDirectory().appendingPathComponent("junit.xml")
        try ReportFile.write(JUnitReport().render(result), to: report.path)
        return (result, report)
    }

    @Test("junitparser reads back the counts, names, classnames and properties the run had")
    func junitparserReadsTheSameRun() async throws {
        let (result, report) = try await Self.mixedReport()
        defer { try? FileManager.default.removeItem(at: report.deletingLastPathComponent()) }

        let suites = try await ReportConsumers.junitparser(report)
        #expect(suites.map(\.name) == result.scenariosByArea.map(\.area))
        for (suite, (_, scenarios)) in zip(suites, result.scenariosByArea) {
            let expected = (
                scenarios.count, scenarios.count { $0.verdict == .failed }, scenarios.count { $0.verdict == .error },
                scenarios.count { $0.verdict == .skipped }
            )
            #expect((suite.tests, suite.failures, suite.errors, suite.skipped) == expected, "\(suite.name)")
            // The attributes agree with the cases themselves.
            #expect(suite.cases.count == suite.tests)
            #expect(suite.cases.count { $0.result == "Failure" } == suite.failures)
            #expect(suite.cases.count { $0.result == "Error" } == suite.errors)
            #expect(suite.cases.count { $0.result == "Skipped" } == suite.skipped)
            #expect(suite.cases.allSatisfy { $0.classname == suite.name })
            #expect(suite.properties["client.name"] == "reference")
            #expect(suite.properties["seed"] == "0")
        }
        let names = suites.flatMap(\.cases).map(\.name)
        #expect(Set(names).count == names.count, "testcase names must be unique: \(names)")
        let failure = try #require(suites.flatMap(\.cases).first { $0.result == "Failure" })
        #expect(
            failure.message?.hasPrefix(
                "resource request no. 2 carries access_token#2 [SHOULD]: expected access_token#2"
            ) == true
        )
        #expect(failure.systemOut?.contains("#4 GET /resource Bearer at-1 → 200") == true)
    }

    @Test("junit2html renders the report with every scenario in it")
    func junit2htmlRenders() async throws {
        let (result, report) = try await Self.mixedReport()
        defer { try? FileManager.default.removeItem(at: report.deletingLastPathComponent()) }
        let page = try await ReportConsumers.junit2html(report)
        for scenario in result.scenarios {
            #expect(page.contains(scenario.id), "\(scenario.id) is missing from junit2html's page")
        }
    }
}
