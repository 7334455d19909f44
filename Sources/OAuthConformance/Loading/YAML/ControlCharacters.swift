/// The characters scenario text may not hold: the C0 controls but tab and newline, DEL, the C1
/// controls and the bidirectional formatting characters. None has a use in a title, a message or a
/// header value; in a header value the client refuses the whole response ("invalid character in
/// header"), in a title a control garbles the terminal, and a bidirectional one shows the text in
/// another order than it has ("Trojan Source", CVE-2021-42574).
enum ControlCharacters {
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: isBidirectional(scalar)
        }
    }

    /// Unicode's bidirectional formatting characters (UAX #9 §2): the embeddings, overrides and
    /// isolates, their terminators, and the implicit marks ALM, LRM and RLM.
    static func isBidirectional(_ scalar: Unicode.Scalar) -> Bool {
        bidirectionalAbbreviations[scalar.value] != nil
    }

    private static let bidirectionalAbbreviations: [UInt32: String] = [
        0x061C: "ALM", 0x200E: "LRM", 0x200F: "RLM", 0x202A: "LRE", 0x202B: "RLE", 0x202C: "PDF", 0x202D: "LRO",
        0x202E: "RLO", 0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI",
    ]

    /// In the file itself a CR ends a line (Windows writes CR LF); only in a value is it a control.
    static func isForbiddenInSource(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\r" && isForbidden(scalar)
    }

    /// False when the UTF-8 text certainly holds none of them, which its bytes tell faster than
    /// its decoded characters: each is one byte below 0x20 or 0x7F, or 0xC2 and a second byte
    /// (as is "§"), or starts with 0xD8 or 0xE2 (as do "—" and "→"; and a CR may end a line of a
    /// file, so true is only a maybe).
    static func mayBeIn(_ utf8: String.UTF8View) -> Bool {
        let mayStartOne = { (byte: UInt8) in
            (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F || byte == 0xC2 || byte == 0xD8
                || byte == 0xE2
        }
        return utf8.withContiguousStorageIfAvailable { $0.contains(where: mayStartOne) }
            ?? utf8.contains(where: mayStartOne)
    }

    /// The first forbidden character of the text and how many characters come before it.
    static func first(in text: String) -> (scalar: Unicode.Scalar, offset: Int)? {
        guard mayBeIn(text.utf8) else { return nil }
        for (offset, scalar) in text.unicodeScalars.enumerated() where isForbidden(scalar) {
            return (scalar, offset)
        }
        return nil
    }

    /// "U+0007 (BEL)": the code an author can search for, and the name an editor may show.
    static func name(of scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let abbreviation: String? =
            switch scalar.value {
            case 0x00...0x20: c0Abbreviations[Int(scalar.value)]
            case 0x7F: "DEL"
            case 0x85: "NEL"
            default: bidirectionalAbbreviations[scalar.value]
            }
        return abbreviation.map { "\(code) (\($0))" } ?? code
    }

    /// The text with its control characters written as escapes, so that a message quoting it
    /// shows them instead of sending them to the terminal.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isForbidden) else { return text }
        return text.unicodeScalars.map { scalar in
            isForbidden(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }.joined()
    }

    private static let c0Abbreviations = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
        "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US", "SP",
    ]
}
