import Foundation

extension PackageFiles {
    /// Every built-in scenario file, in name order.
    static var builtInScenarioFiles: [URL] {
        (FileManager.default.enumerator(atPath: scenarios.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .sorted()
            .map { scenarios.appendingPathComponent($0) }
    }
}
