import Foundation
import Yams

/// The first stage: scenario files on disk → validated scenarios, or diagnostics for all that is wrong.
public enum ScenarioLoader {
    public struct Result: Sendable {
        public var scenarios: [Scenario]
        public var diagnostics: [Diagnostic]
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    static let fileExtensions: Set<String> = ["yaml", "yml"]

    /// Loads files and directories (searched recursively for .yaml and .yml, in name order).
    public static func load(paths: [String]) -> Result {
        let diagnostics = DiagnosticCollector()
        var scenarios: [Scenario] = []
        for file in scenarioFiles(in: paths, diagnostics: diagnostics) {
            guard let data = FileManager.default.contents(atPath: file) else {
                diagnostics.error("cannot read the file", at: SourceLocation(file: file, line: 1, column: 1))
                continue
            }
            scenarios += decode(data, file: file, diagnostics: diagnostics)
        }
        reportDuplicateIDs(scenarios, diagnostics: diagnostics)
        return Result(scenarios: scenarios, diagnostics: diagnostics.diagnostics)
    }

    /// Scenario files are a few kilobytes; past this, parsing is refused rather than left to take its time.
    static let largestFile = 1 << 20

    /// Decodes a file's bytes: UTF-8 text (a byte-order mark is allowed) holding one scenario, or a list of them.
    public static func decode(_ data: Data, file: String, diagnostics: DiagnosticCollector) -> [Scenario] {
        guard isSmallEnough(data.count, file: file, diagnostics: diagnostics),
            let text = SourceText.decode(data, file: file, diagnostics: diagnostics)
        else { return [] }
        return decode(text, file: file, diagnostics: diagnostics)
    }

    /// Decodes YAML text holding one scenario, or a list of them.
    public static func decode(_ text: String, file: String, diagnostics: DiagnosticCollector) -> [Scenario] {
        guard isSmallEnough(text.utf8.count, file: file, diagnostics: diagnostics) else { return [] }
        let reader = YAMLReader(file: file, diagnostics: diagnostics)
        guard let document = YAMLDocument.read(text, file: file, holding: "a scenario", diagnostics: diagnostics) else {
            return []
        }
        ExplicitTags(document: document, diagnostics: diagnostics, file: file).report()
        let root = document.root
        let items: [Node] = if case .sequence(let items) = root { Array(items) } else { [root] }
        if items.isEmpty {
            reader.error("the file holds an empty list; it should hold a scenario or a list of them", at: root)
        }
        return items.flatMap { decodeExpanded($0, reader: reader) }
    }

    private static func isSmallEnough(_ byteCount: Int, file: String, diagnostics: DiagnosticCollector) -> Bool {
        guard byteCount > largestFile else { return true }
        diagnostics.error(
            "the file is larger than 1 MiB; a scenario file is a few kilobytes",
            at: SourceLocation(file: file, line: 1, column: 1)
        )
        return false
    }

    /// One scenario, once per combination of its matrix. A problem outside the parameterised
    /// values would appear in every combination; it is reported once.
    private static func decodeExpanded(_ node: Node, reader: YAMLReader) -> [Scenario] {
        guard let (combinations, isValid) = MatrixExpander(reader: reader).expand(node) else { return [] }
        var reported = Set<Diagnostic>()
        let scenarios = combinations.compactMap { combination in
            let own = DiagnosticCollector()
            let scenario = ScenarioDecoder(reader: YAMLReader(file: reader.file, diagnostics: own))
                .decode(combination.node, parameters: combination.parameters)
            for diagnostic in own.diagnostics where reported.insert(diagnostic).inserted {
                reader.diagnostics.report(diagnostic)
            }
            return scenario
        }
        // A broken matrix was decoded once only so that the scenario's other problems are reported too.
        return isValid ? scenarios : []
    }

    private static func scenarioFiles(in paths: [String], diagnostics: DiagnosticCollector) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                diagnostics.error("no such file or directory: \(path)", at: nil)
                continue
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { fileExtensions.contains(URL(fileURLWithPath: $0).pathExtension) }
                .sorted()
                .map { (path as NSString).appendingPathComponent($0) }
            if found.isEmpty { diagnostics.error("no scenario files (.yaml, .yml) in \(path)", at: nil) }
            files += found
        }
        return files
    }

    private static func reportDuplicateIDs(_ scenarios: [Scenario], diagnostics: DiagnosticCollector) {
        var firstFile: [String: String] = [:]
        for scenario in scenarios {
            if let earlier = firstFile[scenario.id] {
                diagnostics.error(
                    "scenario id '\(scenario.id)' is used again (first in \(earlier)); ids must be unique",
                    at: scenario.file.map { SourceLocation(file: $0, line: 1, column: 1) }
                )
            } else {
                firstFile[scenario.id] = scenario.file ?? "code"
            }
        }
    }
}

extension DiagnosticCollector {
    /// Passes on a diagnostic another collector gathered.
    fileprivate func report(_ diagnostic: Diagnostic) {
        switch diagnostic.severity {
        case .error: error(diagnostic.message, at: diagnostic.location)
        case .warning: warning(diagnostic.message, at: diagnostic.location)
        }
    }
}
