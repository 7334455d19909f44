import Foundation
import MockProvider

@testable import OAuthConformance

enum Fixtures {
    /// The built-in suite, loaded as `conformance run` loads it.
    static func builtInScenarios() throws -> [Scenario] {
        let loaded = ScenarioLoader.load(paths: [PackageFiles.scenarios.path])
        guard !loaded.hasErrors else {
            throw FixtureError(message: loaded.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return loaded.scenarios
    }

    /// A POLICY scenario written for a choice the reference client does not make (it declares
    /// `dpop_downgrade: refuse`), and so skipped for it.
    static func writtenForAnotherPolicy(_ scenario: Scenario) -> Bool {
        scenario.requiredCapabilities.contains(.dpopDowngradeUsedAsBearer)
    }

    static func builtInScenario(_ id: String) throws -> Scenario {
        guard let scenario = try builtInScenarios().first(where: { $0.id == id }) else {
            throw FixtureError(message: "no built-in scenario \(id)")
        }
        return scenario
    }

    static func defect(_ name: String) throws -> DefectiveClient {
        guard let defect = DefectiveClient.catalogue.first(where: { $0.name == name }) else {
            throw FixtureError(message: "no defective client \(name)")
        }
        return defect
    }

    /// Decodes scenario YAML written in a test.
    static func scenario(_ yaml: String, file: String = "inline.yaml") throws -> Scenario {
        let diagnostics = DiagnosticCollector()
        let scenarios = ScenarioLoader.decode(yaml, file: file, diagnostics: diagnostics)
        guard !diagnostics.hasErrors, let scenario = scenarios.first else {
            throw FixtureError(message: diagnostics.diagnostics.map(\.description).joined(separator: "\n"))
        }
        return scenario
    }

    /// The diagnostics YAML written in a test produces.
    static func diagnostics(_ yaml: String, file: String = "broken.yaml") -> [Diagnostic] {
        let diagnostics = DiagnosticCollector()
        _ = ScenarioLoader.decode(yaml, file: file, diagnostics: diagnostics)
        return diagnostics.diagnostics
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A client that never answers, as a wedged adapter would.
struct HangingClientFactory: ClientFactory {
    var profile = ClientProfile(
        name: "hanging",
        version: "1",
        capabilities: Set(Capability.allCases),
        refreshWindow: .seconds(60)
    )

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest { HangingClient() }

    struct HangingClient: LoginAndRequestClient {
        func login(_ grant: GrantType) async -> ClientOutcome { await hang() }
        func request(method: String, url: String) async -> ClientOutcome { await hang() }
        func shutdown() async {}

        private func hang() async -> ClientOutcome {
            try? await Task.sleep(for: .seconds(3600))
            return .failure(ClientFailure(.transient, message: "cancelled"))
        }
    }
}

/// The reference client declaring fewer capabilities than it has.
struct ReducedProfileFactory: ClientFactory {
    var profile: ClientProfile
    let base = ReferenceClientFactory()

    init(capabilities: Set<Capability>) {
        profile = base.profile
        profile.capabilities = capabilities
    }

    /// The reference client under a profile changed otherwise: a declaration left out, say.
    init(_ change: (inout ClientProfile) -> Void) {
        profile = base.profile
        change(&profile)
    }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        try await base.makeClient(for: environment)
    }
}

extension ScenarioResult {
    /// The record of step `number` (1-based), or nil when the run stopped before it: a test asks
    /// for it this way so that a run that ended early fails the test instead of crashing the run.
    func step(_ number: Int) -> StepRecord? {
        transcript?.steps.first { $0.number == number }
    }
}
