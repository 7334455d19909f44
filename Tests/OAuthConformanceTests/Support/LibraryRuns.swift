import Foundation

@testable import OAuthConformance

/// The built-in suite run once per shipped client library, however many tests read the run: the
/// library's own test and the test that keeps docs/clients.md in step both await the same run, so
/// CI pays for each adapter's suite once.
actor LibraryRuns {
    static let shared = LibraryRuns()

    private var runs: [String: Task<SuiteRun, any Error>] = [:]

    /// The run of the profile at `file` (a path under Adapters/), started on first demand.
    func run(_ file: String) async throws -> SuiteRun {
        if let running = runs[file] { return try await running.value }
        let running = Task {
            let profile = try AdapterSuiteTests.installedProfile(file)
            let factory = AdapterClientFactory(profile: profile)
            // Each scenario has its own provider, clock and adapter process, so two at once is safe.
            var run = await SuiteRunner(scenarioRunner: profile.scenarioRunner, jobs: 2).run(
                try Fixtures.builtInScenarios(),
                with: factory
            )
            await factory.stop()
            run.profileFile = "Adapters/\(file)"
            return run
        }
        runs[file] = running
        return try await running.value
    }
}
