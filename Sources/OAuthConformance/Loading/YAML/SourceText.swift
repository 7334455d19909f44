import Foundation

/// A file's text cut into lines the way libyaml counts them, so that a Yams mark (1-based line,
/// column in Unicode scalars) finds the characters it points at, and a position found here reads
/// like one of its marks.
struct SourceText {
    /// Editors on Windows start UTF-8 files with one. It is no part of the text, and libyaml,
    /// told the text is UTF-8, would read it as a character of the first line.
    static let byteOrderMark: Unicode.Scalar = "\u{FEFF}"

    var lines: [[Unicode.Scalar]]

    init(_ text: String) {
        var lines: [[Unicode.Scalar]] = [[]]
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\n", previous == "\r" { continue }
            if Self.isLineBreak(scalar) {
                lines.append([])
            } else {
                lines[lines.count - 1].append(scalar)
            }
        }
        self.lines = lines
    }

    /// libyaml ends a line at LF, CR, CR LF, LS and PS. It also ends one at NEL, but a NEL is a
    /// control character refused before libyaml reads the file, so no mark ever counts one.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\n", "\r", "\u{2028}", "\u{2029}": true
        default: false
        }
    }

    static func withoutByteOrderMark(_ text: String) -> String {
        text.unicodeScalars.first == byteOrderMark ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// The text again, its line breaks all LF: the same lines and columns for libyaml.
    var text: String {
        lines.map { line in
            var characters = String.UnicodeScalarView()
            characters.append(contentsOf: line)
            return String(characters)
        }.joined(separator: "\n")
    }

    func character(line: Int, column: Int) -> Unicode.Scalar? {
        guard lines.indices.contains(line - 1), lines[line - 1].indices.contains(column - 1) else { return nil }
        return lines[line - 1][column - 1]
    }

    /// The position just past the last character.
    var end: (line: Int, column: Int) { (lines.count, lines[lines.count - 1].count + 1) }

    /// Every character for which `matches` holds, in order, with its position.
    func positions(where matches: (Unicode.Scalar) -> Bool) -> [(scalar: Unicode.Scalar, line: Int, column: Int)] {
        lines.enumerated().flatMap { index, line in
            line.enumerated().filter { matches($0.element) }.map { ($0.element, index + 1, $0.offset + 1) }
        }
    }

    /// The text of a file's bytes, or `nil` with the first byte that is not UTF-8 reported.
    /// (`String(decoding:as:)` would turn such bytes into U+FFFD and the file would load,
    /// a Latin-1 "é" in a title quietly becoming "�".)
    static func decode(_ data: Data, file: String, diagnostics: DiagnosticCollector) -> String? {
        if let text = String(validating: data, as: UTF8.self) { return text }
        // Not UTF-8: decoded again, by hand, to find where.
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data.makeIterator()
        var validCount = 0
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let encoded): validCount += encoded.count
            case .emptyInput: return String(decoding: data, as: UTF8.self)  // not reached: the data is not valid
            case .error: return reportNotUTF8(data, validCount: validCount, file: file, diagnostics: diagnostics)
            }
        }
    }

    private static func reportNotUTF8(
        _ data: Data,
        validCount: Int,
        file: String,
        diagnostics: DiagnosticCollector
    ) -> String? {
        let before = withoutByteOrderMark(String(decoding: data.prefix(validCount), as: UTF8.self))
        let (line, column) = SourceText(before).end
        let badByte = data[data.index(data.startIndex, offsetBy: validCount)]
        let message =
            data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
            ? "the file is UTF-16 text; save it as UTF-8"
            : "the file is not UTF-8 text: byte 0x\(String(badByte, radix: 16, uppercase: true)) here is no part of "
                + "a UTF-8 character (was the file saved as Latin-1 or Windows-1252?); save it as UTF-8"
        diagnostics.error(message, at: SourceLocation(file: file, line: line, column: column))
        return nil
    }
}
