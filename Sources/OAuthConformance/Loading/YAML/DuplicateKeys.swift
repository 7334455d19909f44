import Yams

/// Yams refuses a mapping that gives a key twice, but names only the key and marks its first
/// occurrence, where there is nothing to fix. To find the others, the reported occurrence is
/// renamed in the text (to as many characters, so every mark stays put) and the text composed
/// again, until it composes; in that tree the renamed key stands beside the occurrences that
/// came after it. Every duplicate in the file is reported at once, each where it is repeated.
enum DuplicateKeys {
    /// Renaming stops here, or sooner in a long file: each renaming reads the whole text again.
    /// Past it, the first duplicate is reported where Yams saw it.
    static let mostRenames = 16
    static let rereadBudget = 256 * 1024

    static func problems(firstReported key: String, at mark: Mark, in text: String) -> [YAMLSyntaxProblem] {
        var source = SourceText(text)
        var renamed: [Position: String] = [:]
        var next: (key: String, at: Position)? = (key, Position(mark))
        let renames = min(mostRenames, max(1, rereadBudget / max(1, text.utf8.count)))
        for number in 0..<renames {
            guard let current = next, source.replaceKey(current.key, at: current.at, number: number) else { break }
            renamed[current.at] = current.key
            next = nil
            do {
                guard let root = try Yams.compose(yaml: source.text) else { break }
                let found = repeatedKeys(renamed: renamed, in: root)
                if !found.isEmpty { return found }
            } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
                next = duplicates.first.map { ($0, Position(context.mark)) }
            } catch {
                break
            }
        }
        // A key that cannot be renamed (a list as a key, an escape in it) is reported where Yams saw it.
        let message = "the key '\(ControlCharacters.visible(key))' is given more than once in this mapping; keep one"
        return [YAMLSyntaxProblem(message: message, line: mark.line, column: mark.column)]
    }

    struct Position: Hashable, Comparable {
        let line: Int
        let column: Int

        init(_ mark: Mark) {
            (line, column) = (mark.line, mark.column)
        }

        static func < (a: Position, b: Position) -> Bool { (a.line, a.column) < (b.line, b.column) }
    }

    /// Every occurrence after the first of each renamed key, found in the mappings holding one.
    private static func repeatedKeys(renamed: [Position: String], in root: Node) -> [YAMLSyntaxProblem] {
        var problems: [YAMLSyntaxProblem] = []
        YAMLTree.forEachMapping(in: root) { mapping in
            let keys = mapping.keys.compactMap { key in key.mark.map { (node: key, at: Position($0)) } }
            for name in Set(keys.compactMap { renamed[$0.at] }) {
                let occurrences = keys.filter { renamed[$0.at] == name || $0.node.scalar?.string == name }
                    .map(\.at).sorted()
                guard let first = occurrences.first else { continue }
                for repeated in occurrences.dropFirst() {
                    let firstPlace =
                        first.line == repeated.line
                        ? "at column \(first.column) of this line" : "on line \(first.line)"
                    let message =
                        "the key '\(ControlCharacters.visible(name))' is given again in this mapping "
                        + "(first \(firstPlace)); keep one"
                    problems.append(YAMLSyntaxProblem(message: message, line: repeated.line, column: repeated.column))
                }
            }
        }
        return problems.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }
}

extension SourceText {
    /// Replaces the key written at `position`, plain or quoted, by as many private-use characters,
    /// a different one for each `number`, so that no two renamed keys clash. False when the text
    /// there is not the key as it reads (an escape in it, a tag or an anchor before it).
    fileprivate mutating func replaceKey(_ key: String, at position: DuplicateKeys.Position, number: Int) -> Bool {
        let wanted = Array(key.unicodeScalars)
        guard lines.indices.contains(position.line - 1), !wanted.isEmpty,
            let placeholder = Unicode.Scalar(0xE000 + UInt32(number))
        else { return false }
        var line = lines[position.line - 1]
        var start = position.column - 1
        guard line.indices.contains(start) else { return false }
        if line[start] == "\"" || line[start] == "'" {
            let quote = line[start]
            start += 1
            guard start + wanted.count < line.count, line[start + wanted.count] == quote else { return false }
        }
        guard start + wanted.count <= line.count, Array(line[start..<start + wanted.count]) == wanted
        else { return false }
        line.replaceSubrange(start..<start + wanted.count, with: repeatElement(placeholder, count: wanted.count))
        lines[position.line - 1] = line
        return true
    }
}
