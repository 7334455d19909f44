import Yams

/// The scenario language types every value by the key it stands under, so it has no use for
/// YAML tags, and a tag would only mislead: Yams keeps `!custom` and `!!python/object` without
/// acting on them, and `!!binary` or `!!str` changes what a value is behind the author's back.
/// Every tag written in the file is refused, where it is written.
struct ExplicitTags {
    let document: YAMLDocument
    let diagnostics: DiagnosticCollector
    let file: String

    func report() {
        // Every tag starts with '!'; most files hold none, and need no walk.
        guard document.text.utf8.contains(UInt8(ascii: "!")) else { return }
        // Only the text tells a written tag from one Yams gave: it reports a quoted scalar as
        // !!str, and resolves the tags of mapping keys while it looks for duplicates.
        var source: SourceText?
        var reported = Set<SourceLocation>()
        YAMLTree.forEachNode(in: document.root) { node in
            guard let mark = node.mark, !Self.writtenTagName(of: node).isEmpty else { return }
            if source == nil { source = SourceText(document.text) }
            guard let (tag, line, column) = source?.tag(ofNodeAt: mark.line, mark.column) else { return }
            let location = SourceLocation(file: file, line: line, column: column)
            guard reported.insert(location).inserted else { return }
            diagnostics.error(
                "YAML tags have no place in a scenario: remove '\(ControlCharacters.visible(tag))' "
                    + "(each value takes its type from its key)",
                at: location
            )
        }
    }

    /// The tag as composed, before anything resolves it: empty for a node written without one.
    /// (`Node.tag` would resolve it, and resolving changes the shared `Tag` for good.)
    private static func writtenTagName(of node: Node) -> String {
        switch node {
        case .scalar(let scalar): scalar.tag.rawValue
        case .sequence(let sequence): sequence.tag.rawValue
        case .mapping(let mapping): mapping.tag.rawValue
        case .alias: ""
        }
    }
}

extension SourceText {
    /// The tag written for the node that starts at `line`/`column`, and where: a node's
    /// position is that of its properties, a tag and an anchor in either order, and after an
    /// anchor the tag may follow on a later line.
    fileprivate func tag(ofNodeAt line: Int, _ column: Int) -> (tag: String, line: Int, column: Int)? {
        var (line, column) = (line, column)
        if character(line: line, column: column) == "&" {
            while let next = character(line: line, column: column), !Self.endsProperty(next) { column += 1 }
            guard let next = firstTokenPosition(fromLine: line, column: column) else { return nil }
            (line, column) = next
        }
        guard character(line: line, column: column) == "!" else { return nil }
        let rest = lines[line - 1][(column - 1)...]
        // A verbatim tag, !<tag:example.com,2024:x>, may hold any character up to its '>'.
        let length =
            rest.starts(with: ["!", "<"])
            ? rest.firstIndex(of: ">").map { $0 - rest.startIndex + 1 } ?? rest.count
            : rest.prefix { !Self.endsProperty($0) }.count
        var tag = String.UnicodeScalarView()
        tag.append(contentsOf: rest.prefix(length))
        return (String(tag), line, column)
    }

    /// Anchors and tag shorthands end at a blank or a flow indicator.
    private static func endsProperty(_ scalar: Unicode.Scalar) -> Bool {
        " \t,[]{}".unicodeScalars.contains(scalar)
    }

    /// The next character that is not a blank, a line end or in a comment.
    private func firstTokenPosition(fromLine line: Int, column: Int) -> (line: Int, column: Int)? {
        var (line, column) = (line, column)
        while lines.indices.contains(line - 1) {
            switch character(line: line, column: column) {
            case " ", "\t": column += 1
            case nil, "#": (line, column) = (line + 1, 1)
            default: return (line, column)
            }
        }
        return nil
    }
}
