/// Text from a client made fit for any report: whatever it printed is kept readable, never
/// allowed to break a file format or a terminal, and never allowed to grow a report without bound.
public enum ReportText {
    /// Without terminal escape sequences and without the characters XML 1.0 forbids (NUL, most
    /// C0 controls, unpaired surrogates cannot occur in a Swift string, U+FFFE and U+FFFF), and
    /// with the bidirectional formatting characters written as visible escapes (`\u{202E}`), so
    /// no text shows in another order than it has. Invalid UTF-8 never gets this far: decoding it
    /// with `String(decoding:as:)` already replaced it with U+FFFD.
    public static func sanitized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in withoutTerminalEscapes(text).unicodeScalars where isAllowed(scalar) {
            if ControlCharacters.isBidirectional(scalar) {
                result.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Without terminal escape sequences, and with every control character (C0, DEL, C1, and the
    /// bidirectional ones) written as a visible escape (`\r`, `\u{7F}`, `\u{202E}`), line feeds
    /// and tabs too unless `keepingLineBreaks`: for a console line or a Markdown list item, which a
    /// client's text must not split, garble or reorder.
    public static func visible(_ text: String, keepingLineBreaks: Bool = false) -> String {
        var result = ""
        for scalar in withoutTerminalEscapes(text).unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingLineBreaks, 0x09 where keepingLineBreaks: result.unicodeScalars.append(scalar)
            case 0x0A: result += "\\n"
            case 0x09: result += "\\t"
            case 0x0D: result += "\\r"
            case 0x00...0x1F, 0x7F...0x9F: result += escape(scalar)
            case _ where ControlCharacters.isBidirectional(scalar): result += escape(scalar)
            case _ where isAllowed(scalar): result.unicodeScalars.append(scalar)
            default: break
            }
        }
        return result
    }

    /// `\u{202E}`: the character's code, where the character itself would do harm.
    private static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// At most `limit` Unicode scalars, with a note saying how much was cut; `nil` when nothing was.
    public static func truncated(_ text: String, to limit: Int) -> String? {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return nil }
        let kept = String(String.UnicodeScalarView(scalars.prefix(limit)))
        return kept + "\n… \(scalars.count - limit) more characters not shown"
    }

    /// The text itself when short enough, else `truncated(_:to:)`.
    public static func capped(_ text: String, to limit: Int) -> String {
        truncated(text, to: limit) ?? text
    }

    /// One line of at most `limit` Unicode scalars of the text as `sanitized(_:)` shows it (and
    /// `…` where it was cut), every run of white space made one space: what a list entry quotes
    /// of a longer text, which must keep its entry one short line whatever a client printed. The
    /// whole text is a click away.
    public static func excerpt(_ text: String, to limit: Int) -> String {
        var line = String.UnicodeScalarView()
        for scalar in sanitized(text).unicodeScalars {
            let isSpace = scalar.properties.isWhitespace
            if isSpace, line.isEmpty || line.last == " " { continue }
            line.append(isSpace ? " " : scalar)
        }
        if line.last == " " { line.removeLast() }
        guard line.count > limit else { return String(line) }
        return String(String.UnicodeScalarView(line.prefix(limit))) + "…"
    }

    /// XML 1.0 §2.2 Char production.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Drops ANSI escape sequences: CSI (`ESC [` parameters, final byte: colours, cursor moves),
    /// OSC (`ESC ]` … BEL or `ESC \`: window titles, hyperlinks) and two-character escapes.
    static func withoutTerminalEscapes(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{1B}") else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                result.append(scalar)
                continue
            }
            switch scalars.next() {
            case "["?:
                while let parameter = scalars.next(), !(0x40...0x7E).contains(parameter.value) {}
            case "]"?:
                var previous: Unicode.Scalar = " "
                while let part = scalars.next(), part != "\u{7}", !(previous == "\u{1B}" && part == "\\") {
                    previous = part
                }
            default:
                break
            }
        }
        return String(result)
    }
}
