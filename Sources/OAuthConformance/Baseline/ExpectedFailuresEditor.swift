import Yams

/// A client profile's text with its `expected_failures:` list rewritten as a baseline decides,
/// and nothing else touched: Yams reads the file only to find where each entry is; the entries
/// kept stay as their author wrote them (quoting, comments, line breaks), comments between
/// entries stay where they are, and only the entries dropped, narrowed or added are written anew.
/// The rewritten text is read back before it is returned, so a profile is never left broken.
public enum ExpectedFailuresEditor {
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    static let key = "expected_failures"

    public static func rewrite(
        _ original: String,
        file: String,
        as baseline: ExpectedFailuresBaseline
    ) throws(Problem) -> String {
        let hasByteOrderMark = original.unicodeScalars.first == SourceText.byteOrderMark
        let text = SourceText.withoutByteOrderMark(original)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw Problem(description: "\(file): not YAML Yams can read: \(error)")
        }
        guard case .mapping(let top)? = root else {
            throw Problem(description: "\(file): not a client profile (a mapping at the top)")
        }
        var lines = ProfileLines(text)
        let updated = baseline.updated
        if let (keyNode, value) = top.first(where: { $0.key.string == key }), let keyLine = keyNode.mark?.line {
            let nextKeyLine = top.keys.compactMap(\.mark?.line).filter { $0 > keyLine }.min() ?? lines.count + 1
            let blockEnd = lines.endTrimmingComments(from: keyLine + 1, to: nextKeyLine)
            // Yams gives a composed sequence the style of its end event, not its start: the text says which it is.
            if case .sequence(let sequence) = value, !sequence.isEmpty, let start = value.mark, !lines.isFlow(at: start)
            {
                try rewriteBlock(sequence, keyLine: keyLine, blockEnd: blockEnd, in: &lines, as: baseline)
            } else {
                lines.replace(keyLine..<blockEnd, with: try listLines(updated, indent: "  "))
            }
        } else if !updated.isEmpty {
            lines.append(try listLines(updated, indent: "  "))
        }
        let rewritten = (hasByteOrderMark ? String(SourceText.byteOrderMark) : "") + lines.text
        let readBack = AdapterProfileLoader.decode(rewritten, file: file)
        guard let profile = readBack.profile, !readBack.hasErrors, profile.expectedFailures == updated else {
            throw Problem(
                description: "\(file): the rewritten expected_failures would not read back as written "
                    + "(\(readBack.diagnostics.map(\.description).joined(separator: "; "))); the file was left unchanged"
            )
        }
        return rewritten
    }

    /// Entries kept stay as written; dropped ones go, narrowed ones are replaced where they
    /// were, and added ones follow the last entry, with the first entry's indentation.
    private static func rewriteBlock(
        _ sequence: Node.Sequence,
        keyLine: Int,
        blockEnd: Int,
        in lines: inout ProfileLines,
        as baseline: ExpectedFailuresBaseline
    ) throws(Problem) {
        guard sequence.count == baseline.decisions.count else {
            throw Problem(description: "the expected_failures list changed while it was read")
        }
        let starts = sequence.map { lines.dashLine(atOrAbove: $0.mark?.line ?? keyLine + 1) }
        let ends = starts.indices.map { index in
            lines.endTrimmingComments(
                from: starts[index] + 1,
                to: index + 1 < starts.count ? starts[index + 1] : blockEnd
            )
        }
        let indent = lines.indentation(ofLine: starts[0])
        // From the last entry up, so that the line numbers of those above stay true.
        if baseline.updated.isEmpty {
            lines.replace(keyLine..<ends[ends.count - 1], with: try listLines([], indent: indent))
            return
        }
        lines.insert(try entryLines(baseline.added, indent: indent), at: ends[ends.count - 1])
        for (index, decided) in zip(starts.indices, baseline.decisions).reversed() {
            switch decided.decision {
            case .keep: continue
            case .drop: lines.replace(starts[index]..<ends[index], with: [])
            case .narrow(let replacements, _):
                lines.replace(starts[index]..<ends[index], with: try entryLines(replacements, indent: indent))
            }
        }
    }

    /// `expected_failures:` and its entries, or `expected_failures: []`.
    private static func listLines(_ entries: [ExpectedFailure], indent: String) throws(Problem) -> [String] {
        entries.isEmpty ? ["\(key): []"] : ["\(key):"] + (try entryLines(entries, indent: indent))
    }

    /// Entries as Yams writes them (quoted where YAML needs it, never folded), indented.
    private static func entryLines(_ entries: [ExpectedFailure], indent: String) throws(Problem) -> [String] {
        guard !entries.isEmpty else { return [] }
        let list = Node.sequence(
            Node.Sequence(
                entries.map { entry in
                    Node.mapping(
                        Node.Mapping([(Node("scenario"), Node(entry.scenario)), (Node("reason"), Node(entry.reason))])
                    )
                },
                .implicit,
                .block
            )
        )
        do {
            let yaml = try Yams.serialize(node: list, width: -1, allowUnicode: true)
            return yaml.split(separator: "\n").map { indent + $0 }
        } catch {
            throw Problem(description: "an expected failure could not be written as YAML: \(error)")
        }
    }
}

/// A file's lines, numbered from 1 as Yams marks are, to be edited as whole lines.
private struct ProfileLines {
    private var lines: [String]
    private let endsWithLineBreak: Bool

    init(_ text: String) {
        endsWithLineBreak = text.hasSuffix("\n")
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if endsWithLineBreak { lines.removeLast() }
    }

    var count: Int { lines.count }
    var text: String { lines.joined(separator: "\n") + (endsWithLineBreak || lines.isEmpty ? "\n" : "") }

    private func line(_ number: Int) -> String { lines.indices.contains(number - 1) ? lines[number - 1] : "" }

    private func isBlankOrComment(_ number: Int) -> Bool {
        let content = line(number).drop { $0 == " " || $0 == "\t" }
        return content.isEmpty || content.hasPrefix("#")
    }

    /// The end (exclusive) of the content in `start..<end`: comments and blank lines at its
    /// foot belong to what follows.
    func endTrimmingComments(from start: Int, to end: Int) -> Int {
        var end = end
        while end > start, isBlankOrComment(end - 1) { end -= 1 }
        return end
    }

    /// The line of an entry's `-`: its first key's line, or above it when the dash stands alone.
    func dashLine(atOrAbove number: Int) -> Int {
        var candidate = number
        while candidate > 1, !line(candidate).drop(while: { $0 == " " }).hasPrefix("-") { candidate -= 1 }
        return candidate
    }

    /// Whether a collection starting at `mark` is written in flow style, `[…]`.
    func isFlow(at mark: Mark) -> Bool {
        line(mark.line).unicodeScalars.dropFirst(mark.column - 1).first == "["
    }

    func indentation(ofLine number: Int) -> String {
        String(line(number).prefix { $0 == " " })
    }

    mutating func replace(_ range: Range<Int>, with replacement: [String]) {
        let clamped = (range.lowerBound - 1)..<min(range.upperBound - 1, lines.count)
        lines.replaceSubrange(clamped, with: replacement)
    }

    mutating func insert(_ inserted: [String], at number: Int) {
        lines.insert(contentsOf: inserted, at: min(number - 1, lines.count))
    }

    mutating func append(_ appended: [String]) {
        lines.append(contentsOf: appended)
    }
}
