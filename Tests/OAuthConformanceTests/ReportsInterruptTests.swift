import Foundation
import Testing

@testable import OAuthConformance

/// `conformance run` stopped by a signal, as CI stops a job that is cancelled or out of time.
@Suite("conformance run interrupted")
struct ReportsInterruptTests {
    static let scenarioCount = 12
    static let markVariable = "OAUTH_CONFORMANCE_TEST_RUN"

    /// A quick scenario, then scenarios that each wait a minute of real time: however late the
    /// test sees the first PASS (its polls share two cores with every other test), the run is
    /// still under way when the signal comes.
    static func slowSuite(in directory: URL) throws -> URL {
        let suite = directory.appendingPathComponent("slow")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        for number in 1...scenarioCount {
            let id = "retry/interrupted-\(number < 10 ? "0" : "")\(number)"
            let waits = number == 1 ? "" : String(repeating: "  - wait: 10s\n", count: 6)
            try """
            conformance: 1
            id: \(id)
            title: A request, then a minute of real time
            area: retry
            level: MUST
            steps:
              - login: password
              - request: GET /resource
            \(waits)expect:
              - every_step: succeeds
            """.write(to: suite.appendingPathComponent("\(number).yaml"), atomically: true, encoding: .utf8)
        }
        return suite
    }

    @Test(
        "a signal mid-run: exit 128+n, the reports written and valid, every unfinished scenario an error, no process left",
        arguments: [
            (SIGTERM, Int32(143), "SIGTERM", false), (SIGINT, Int32(130), "SIGINT", false),
            (SIGTERM, Int32(143), "SIGTERM", true), (SIGINT, Int32(130), "SIGINT", true),
        ]
    )
    func signalWritesReports(_ signal: Int32, _ status: Int32, _ name: String, isolated: Bool) async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let suite = try Self.slowSuite(in: directory)
        let report = directory.appendingPathComponent("junit.xml")
        let json = directory.appendingPathComponent("result.json")
        let output = directory.appendingPathComponent("stdout")
        let errors = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        let process = Process()
        process.executableURL = PackageFiles.conformanceExecutable
        process.arguments =
            ["run", suite.path, "--junit", report.path, "--json", json.path] + (isolated ? ["--isolate"] : [])
        // Every process the run starts inherits the mark, so the test can tell that none is left.
        let mark = UUID().uuidString
        process.environment = ProcessInfo.processInfo.environment.merging([Self.markVariable: mark]) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // Interrupt once the first scenario has finished, so the run is under way.
        let started = Date()
        while process.isRunning, Date().timeIntervalSince(started) < 60,
            !String(decoding: try Data(contentsOf: output), as: UTF8.self).contains("PASS")
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(process.isRunning, "the suite finished before it could be interrupted")
        kill(process.processIdentifier, signal)
        let signalled = Date()
        while process.isRunning, Date().timeIntervalSince(signalled) < 30 {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(!process.isRunning, "conformance did not stop within 30 s of \(name)")

        let standardError = String(decoding: try Data(contentsOf: errors), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == status, "\(standardError)")
        let table = ProcessTable.read()
        let left = table.family(carrying: Self.markVariable, mark).filter { table.entries[$0]?.isZombie == false }
        #expect(left.isEmpty, "processes of the run still alive: \(left)")
        #expect(standardError.contains("\(name) received"))
        #expect(String(decoding: try Data(contentsOf: output), as: UTF8.self).contains("(interrupted)"))

        let validation = try await JUnitReportTests.validate(file: report)
        #expect(validation.status == 0, "\(validation.standardError)")
        let result = try JSONReport.read(file: json.path)
        #expect(result.interrupted)
        #expect(result.scenarios.count == Self.scenarioCount, "every scenario is listed, finished or not")
        let unfinished = result.scenarios.drop { $0.verdict == .passed }
        #expect(!unfinished.isEmpty && unfinished.count < Self.scenarioCount)
        #expect(
            unfinished.allSatisfy { $0.verdict == .error && $0.reason?.hasPrefix("interrupted") == true },
            "\(unfinished.map(\.reason))"
        )

        let suites = try await ReportConsumers.junitparser(report)
        #expect(
            suites.flatMap(\.cases).count { $0.result == "Error" && $0.message?.hasPrefix("interrupted") == true }
                == unfinished.count
        )
        #expect(suites.first?.properties["interrupted"] == "true")
    }
}
