/// Text made safe for XML 1.0 whatever a client printed: `ReportText.sanitized`, then markup
/// characters escaped. `]]>` needs nothing more: no CDATA is written, and its `>` is escaped.
enum XMLText {
    static func escaped(_ text: String, forAttribute: Bool = false) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in ReportText.sanitized(text).unicodeScalars {
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
