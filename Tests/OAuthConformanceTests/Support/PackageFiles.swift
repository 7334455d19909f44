import Foundation

/// Paths of the package under test, found from this file so tests run from any directory.
enum PackageFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scenarios = root.appendingPathComponent("Scenarios")
    static let junitSchema = root.appendingPathComponent("Schemas/junit-10.xsd")

    /// The `conformance` executable built beside the test bundle.
    static var conformanceExecutable: URL {
        let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return buildDirectory.appendingPathComponent("conformance")
    }

    /// The `reference-adapter` executable built beside the test bundle.
    static var referenceAdapterExecutable: URL {
        conformanceExecutable.deletingLastPathComponent().appendingPathComponent("reference-adapter")
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "conformance-tests-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
