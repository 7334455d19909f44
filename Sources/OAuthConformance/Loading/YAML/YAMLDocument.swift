import Yams

/// A file's single YAML document, composed by Yams. What stops a file from being read at all
/// is reported in words its author understands, at the place it is.
struct YAMLDocument {
    let root: Node
    /// The text Yams read: the file's, without a byte-order mark. Yams marks are positions in it.
    let text: String

    /// The document, or `nil` with the problem reported: text YAML cannot hold, a syntax error,
    /// or an empty file where one should hold `what`.
    static func read(
        _ text: String,
        file: String,
        holding what: String,
        diagnostics: DiagnosticCollector
    ) -> YAMLDocument? {
        let text = SourceText.withoutByteOrderMark(text)
        let start = SourceLocation(file: file, line: 1, column: 1)
        if let problem = YAMLSyntaxProblem.controlCharacters(in: text) {
            diagnostics.error(problem.message, at: problem.location(in: file))
            return nil
        }
        do {
            guard let root = try Yams.compose(yaml: text) else {
                let content = text.contains { !$0.isWhitespace } ? "holds only comments" : "is empty"
                diagnostics.error("the file \(content); it should hold \(what)", at: start)
                return nil
            }
            return YAMLDocument(root: root, text: text)
        } catch {
            for problem in YAMLSyntaxProblem.problems(for: error, in: text, holding: what) {
                diagnostics.error(problem.message, at: problem.location(in: file))
            }
            return nil
        }
    }
}

/// A problem that keeps a file from being read as YAML, as a message and a position.
struct YAMLSyntaxProblem {
    let message: String
    let line: Int
    let column: Int

    /// The file's YAML document, or `nil` with the problem reported (for loaders that need the tree only).
    static func document(
        _ text: String,
        file: String,
        holding what: String,
        diagnostics: DiagnosticCollector
    ) -> Node? {
        YAMLDocument.read(text, file: file, holding: what, diagnostics: diagnostics)?.root
    }

    func location(in file: String) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// libyaml refuses most control characters too, but at a byte offset Yams does not turn into
    /// a line; and it takes a NEL for a line break. The first one is reported, with a count of the rest.
    static func controlCharacters(in text: String) -> YAMLSyntaxProblem? {
        guard ControlCharacters.mayBeIn(text.utf8),
            text.unicodeScalars.contains(where: ControlCharacters.isForbiddenInSource)
        else { return nil }
        let found = SourceText(text).positions(where: ControlCharacters.isForbiddenInSource)
        guard let first = found.first else { return nil }
        let others = found.count > 1 ? " (and \(found.count - 1) more in the file)" : ""
        return YAMLSyntaxProblem(
            message: "the file holds the control character \(ControlCharacters.name(of: first.scalar)) here\(others); "
                + "a YAML file is text, with tabs and line breaks its only control characters",
            line: first.line,
            column: first.column
        )
    }

    /// What Yams threw, in the author's words. A duplicated key can come with others.
    static func problems(for error: any Error, in text: String, holding what: String) -> [YAMLSyntaxProblem] {
        guard let yamlError = error as? YamlError else {
            return [YAMLSyntaxProblem(message: "invalid YAML: \(error)", line: 1, column: 1)]
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let message =
                explanation(of: problem, at: mark, in: text, holding: what)
                ?? "invalid YAML: \(problem)\(context.map { " \($0.text)" } ?? "")"
            return [YAMLSyntaxProblem(message: message, line: mark.line, column: mark.column)]
        case .duplicatedKeysInMapping(let duplicates, let context):
            return DuplicateKeys.problems(firstReported: duplicates.first ?? "", at: context.mark, in: text)
        case .reader(let problem, let offset, let value, _):
            let (line, column) = position(ofCharacter: offset ?? 0, in: text)
            let message =
                UInt32(exactly: value).flatMap(Unicode.Scalar.init).map {
                    "the file holds \(ControlCharacters.name(of: $0)) here, which YAML does not allow"
                } ?? "the file cannot be read as YAML text: \(problem)"
            return [YAMLSyntaxProblem(message: message, line: line, column: column)]
        default:
            return [YAMLSyntaxProblem(message: "invalid YAML: \(yamlError)", line: 1, column: 1)]
        }
    }

    /// libyaml's wording for the mistakes an author makes most, where it reads like libyaml's internals.
    private static func explanation(
        of problem: String,
        at mark: Mark,
        in text: String,
        holding what: String
    ) -> String? {
        if problem.hasPrefix("Maximum nesting level reached") {
            return "the document nests deeper than \(maximumNesting) levels here; a scenario needs a handful"
        }
        if problem == "but found another document" {
            return "a second YAML document starts here; the file should hold one document: \(what)"
        }
        if problem.contains("tab character")
            || (problem == "found character that cannot start any token"
                && SourceText(text).character(line: mark.line, column: mark.column) == "\t")
        {
            return "a tab here; YAML indents with spaces, never tabs"
        }
        if problem == "did not find expected <document start>" {
            return "invalid YAML: the document ended before this line (a '...' above, or a line indented "
                + "less than the first), and this does not start another"
        }
        return nil
    }

    /// libyaml's limit (`yaml_set_max_nest_level`), past which it refuses a document.
    static let maximumNesting = 1000

    /// Yams gives a reader error's place as a count of Characters from the start of the text.
    private static func position(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
        let index = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex) ?? text.endIndex
        return SourceText(String(text[..<index])).end
    }
}
