/// Text from a client made fit for any report: whatever it printed is kept readable, never
/// allowed to break a file format or a terminal, and never allowed to grow a report without bound.
public enum ReportText {
    /// Without terminal escape sequences and without the characters XML 1.0 forbids (NUL, most
    /// C0 controls, unpaired surrogates cannot occur in a Swift string, U+FFFE and U+FFFF).
    /// Invalid UTF-8 never gets this far: decoding it with `String(decoding:as:)` already
    /// replaced it with U+FFFD.
    public static func sanitized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in withoutTerminalEscapes(text).unicodeScalars where isAllowed(scalar) {
            result.append(scalar)
        }
        return String(result)
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
                while let part = scalars.next(), part != "\u{7}", !(previous == "\u{1B}" && part == "\\") { previous = part }
            default:
                break
            }
        }
        return String(result)
    }
}
