/// The suite in one call, from Swift Testing or XCTest:
///
/// ```swift
/// @Test func myClientConforms() async throws {
///     let run = try await ConformanceTest.run(MyClientFactory(), scenarios: ["Scenarios"], junit: "Reports/junit.xml")
///     #expect(run.conforms, "\(run.problems)")
/// }
/// ```
///
/// The client factory's profile decides what is skipped and which failures are expected, exactly
/// as `conformance run` does; an `AdapterClientFactory` runs a client out of process the same way.
public enum ConformanceTest {
    public struct ScenarioFilesInvalid: Error, CustomStringConvertible {
        public var diagnostics: [Diagnostic]
        public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    }

    /// Loads the scenario files (throwing every problem in them at once), runs them against the
    /// client and writes the JUnit report when `junit` names a file.
    @discardableResult
    public static func run(
        _ client: any ClientFactory,
        scenarios paths: [String] = ["Scenarios"],
        junit: String? = nil,
        runner: ScenarioRunner = ScenarioRunner()
    ) async throws -> SuiteRun {
        let loaded = ScenarioLoader.load(paths: paths)
        guard !loaded.hasErrors else { throw ScenarioFilesInvalid(diagnostics: loaded.diagnostics) }
        let run = await SuiteRunner(scenarioRunner: runner).run(loaded.scenarios, with: client)
        if let junit { try ReportFile.write(JUnitReport().render(run), to: junit) }
        return run
    }
}

extension SuiteRun {
    /// One line per scenario that failed or could not be judged: what to print when a test fails.
    public var problems: [String] {
        results.compactMap { result in
            switch result.verdict {
            case .failed: "\(result.scenario.id): " + result.failedChecks.map(\.summary).joined(separator: "; ")
            case .error(let problem): "\(result.scenario.id): error: \(problem)"
            case .inconclusive(let reason): "\(result.scenario.id): inconclusive: \(reason)"
            case .passed, .skipped, .expectedFailure, .toleratedFailure: nil
            }
        }
    }
}
