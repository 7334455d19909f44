/// Text made safe for XML 1.0 whatever a client printed: characters XML forbids and terminal
/// escape sequences are removed, markup characters escaped.
enum XMLText {
    static func escaped(_ text: String, forAttribute: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in withoutTerminalEscapes(text).unicodeScalars where isAllowed(scalar) {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where forAttribute: result += "&quot;"
            case "\n" where forAttribute: result += "&#10;"
            case "\t" where forAttribute: result += "&#9;"
            case "\r": result += "&#13;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// XML 1.0 §2.2 Char production.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Drops ANSI CSI sequences (colours, cursor moves): ESC [ parameters final-byte.
    static func withoutTerminalEscapes(_ text: String) -> String {
        guard text.unicodeScalars.contains("\u{1B}") else { return text }
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                result.append(scalar)
                continue
            }
            guard let next = scalars.next(), next == "[" else { continue }
            while let parameter = scalars.next(), !(0x40...0x7E).contains(parameter.value) {}
        }
        return String(result)
    }
}

/// Builds an XML document element by element, indenting as it goes.
struct XMLBuilder {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    private var open: [String] = []

    mutating func start(_ name: String, _ attributes: [(String, String)] = []) {
        text += indentation + "<\(name)\(Self.attributes(attributes))>\n"
        open.append(name)
    }

    mutating func end() {
        let name = open.removeLast()
        text += indentation + "</\(name)>\n"
    }

    mutating func empty(_ name: String, _ attributes: [(String, String)] = []) {
        text += indentation + "<\(name)\(Self.attributes(attributes))/>\n"
    }

    mutating func element(_ name: String, _ attributes: [(String, String)] = [], content: String) {
        text += indentation + "<\(name)\(Self.attributes(attributes))>\(XMLText.escaped(content))</\(name)>\n"
    }

    private var indentation: String { String(repeating: "  ", count: open.count) }

    private static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(XMLText.escaped($0.1, forAttribute: true))\"" }.joined()
    }
}
