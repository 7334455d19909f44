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
            scenarios += decode(String(decoding: data, as: UTF8.self), file: file, diagnostics: diagnostics)
        }
        reportDuplicateIDs(scenarios, diagnostics: diagnostics)
        return Result(scenarios: scenarios, diagnostics: diagnostics.diagnostics)
    }

    /// Scenario files are a few kilobytes; past this, parsing is refused rather than left to take its time.
    static let largestFile = 1 << 20

    /// Decodes YAML text holding one scenario, or a list of them.
    public static func decode(_ text: String, file: String, diagnostics: DiagnosticCollector) -> [Scenario] {
        guard text.utf8.count <= largestFile else {
            diagnostics.error("the file is larger than 1 MiB; a scenario file is a few kilobytes", at: SourceLocation(file: file, line: 1, column: 1))
            return []
        }
        let reader = YAMLReader(file: file, diagnostics: diagnostics)
        guard let root = YAMLSyntaxProblem.document(text, file: file, holding: "a scenario", diagnostics: diagnostics) else { return [] }
        let items: [Node] = if case .sequence(let items) = root { Array(items) } else { [root] }
        if items.isEmpty { reader.error("the file holds an empty list; it should hold a scenario or a list of them", at: root) }
        return items.flatMap { decodeExpanded($0, reader: reader) }
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

/// A YAML syntax error as a message and a position.
/// A YAML syntax error as a diagnostic, with the position Yams reports.
struct YAMLSyntaxProblem {
    let message: String
    let mark: Mark?

    /// The file's YAML document, or `nil` with the problem reported: a syntax error, or an empty
    /// file where one should hold `what`.
    static func document(_ text: String, file: String, holding what: String, diagnostics: DiagnosticCollector) -> Node? {
        do {
            guard let document = try Yams.compose(yaml: text) else {
                diagnostics.error("the file is empty; it should hold \(what)", at: SourceLocation(file: file, line: 1, column: 1))
                return nil
            }
            return document
        } catch {
            let problem = YAMLSyntaxProblem(error)
            diagnostics.error(problem.message, at: problem.location(in: file))
            return nil
        }
    }

    init(_ error: any Error) {
        guard let yamlError = error as? YamlError else {
            (message, mark) = ("invalid YAML: \(error)", nil)
            return
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let detail = context.map { " \($0.text)" } ?? ""
            (message, self.mark) = ("invalid YAML: \(problem)\(detail)", mark)
        case .duplicatedKeysInMapping(let duplicates, let context):
            (message, mark) = ("the key \(duplicates.joined(separator: ", ")) appears twice in one mapping", context.mark)
        case .reader(let problem, _, _, _):
            (message, mark) = ("the file is not valid UTF-8 text: \(problem)", nil)
        default:
            (message, mark) = ("invalid YAML: \(yamlError)", nil)
        }
    }

    func location(in file: String) -> SourceLocation {
        SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
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
