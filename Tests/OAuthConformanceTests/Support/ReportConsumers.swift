import Foundation
import Testing

/// The programs CI dashboards use to read JUnit XML, run on our reports: junitparser (PyPI)
/// reading a report back, junit2html (PyPI) rendering it. scripts/test installs both; a missing
/// one fails the test that needs it, saying how to get it.
enum ReportConsumers {
    /// A testsuite as junitparser reads it: the counts in its attributes, and its cases.
    struct Suite: Decodable {
        var name: String
        var tests: Int
        var failures: Int
        var errors: Int
        var skipped: Int
        var properties: [String: String]
        var cases: [Case]
    }

    struct Case: Decodable {
        var name: String
        var classname: String
        /// `Failure`, `Error` or `Skipped`; absent for a pass.
        var result: String?
        var message: String?
        var time: Double
        var systemOut: String?
        var systemErr: String?
    }

    static let readerScript = """
        import json, sys
        from junitparser import JUnitXml
        suites = []
        for suite in JUnitXml.fromfile(sys.argv[1]):
            cases = []
            for case in suite:
                results = list(case.result)
                cases.append({
                    "name": case.name, "classname": case.classname, "time": case.time,
                    "result": type(results[0]).__name__ if results else None,
                    "message": results[0].message if results else None,
                    "systemOut": case.system_out, "systemErr": case.system_err,
                })
            suites.append({
                "name": suite.name, "tests": suite.tests, "failures": suite.failures,
                "errors": suite.errors, "skipped": suite.skipped,
                "properties": {p.name: p.value for p in suite.properties()}, "cases": cases,
            })
        json.dump(suites, sys.stdout)
        """

    static func junitparser(_ report: URL) async throws -> [Suite] {
        let python = try #require(ProcessRun.which("python3"), "python3 is missing; junitparser needs it")
        let check = try await ProcessRun.run(python, ["-c", "import junitparser"])
        try #require(
            check.status == 0,
            "junitparser is missing: scripts/test installs it (pip install junitparser)\n\(check.standardError)"
        )
        let read = try await ProcessRun.run(python, ["-c", readerScript, report.path])
        try #require(read.status == 0, "junitparser could not read \(report.path):\n\(read.standardError)")
        return try JSONDecoder().decode([Suite].self, from: Data(read.standardOutput.utf8))
    }

    /// Renders the report to HTML with junit2html; returns the page.
    static func junit2html(_ report: URL) async throws -> String {
        let tool = try #require(
            ProcessRun.which("junit2html"),
            "junit2html is missing: scripts/test installs it (pip install junit2html)"
        )
        let page = report.deletingPathExtension().appendingPathExtension("html")
        let rendered = try await ProcessRun.run(tool, [report.path, page.path])
        try #require(
            rendered.status == 0,
            "junit2html failed on \(report.path):\n\(rendered.standardOutput)\(rendered.standardError)"
        )
        return try String(contentsOf: page, encoding: .utf8)
    }
}
