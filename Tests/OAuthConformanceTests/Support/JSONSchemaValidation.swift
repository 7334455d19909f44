import Foundation
import Testing

/// Runs a Python program that validates with jsonschema (draft 2020-12), as the schema tests do:
/// what it printed. The tests require python3 with jsonschema and PyYAML (scripts/test installs them).
enum JSONSchemaValidation {
    static func run(_ program: String, _ arguments: [String]) async throws -> String {
        let python = try #require(ProcessRun.which("python3"), "python3 is needed to check the JSON Schema")
        let probe = try await ProcessRun.run(python, ["-c", "import jsonschema, yaml"])
        try #require(
            probe.status == 0,
            "Python's jsonschema and PyYAML are missing: scripts/test installs them (pip install jsonschema pyyaml)"
        )
        let run = try await ProcessRun.run(python, ["-c", program] + arguments)
        try #require(run.status == 0, "the validator failed: \(run.standardError)")
        return run.standardOutput
    }
}
