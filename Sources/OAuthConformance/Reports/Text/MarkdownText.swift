/// Pieces of GitHub-flavoured Markdown that every Markdown report builds the same way.
enum MarkdownText {
    /// Text for HTML inside Markdown, all on one line: escaped, and `|` kept from splitting a table cell.
    static func html(_ text: String) -> String {
        XMLText.escaped(text, forAttribute: true).replacingOccurrences(of: "|", with: "&#124;")
    }

    /// A fence for a code block holding `text`: three backticks, or more than the longest run
    /// of backticks in it, so nothing a client printed can close the block early.
    static func fence(for text: String) -> String {
        var longest = 0
        var current = 0
        for character in text {
            current = character == "`" ? current + 1 : 0
            longest = max(longest, current)
        }
        return String(repeating: "`", count: max(3, longest + 1))
    }

    /// `text` in a fenced block marked as plain text.
    static func codeBlock(_ text: String) -> [String] {
        let fence = fence(for: text)
        return [fence + "text", text, fence]
    }
}

extension MarkdownText {
    /// Text from a result for a Markdown paragraph, list item or table cell: `&`, `<`, `>` and
    /// `|` escaped as HTML (quotes need not be, outside an attribute), and the characters that
    /// would start code, emphasis or strikethrough escaped. Underscores are left alone: inside words (`refresh_token`) GitHub never reads
    /// them as emphasis, and escaping them would garble the file for people reading it raw.
    static func inline(_ text: String) -> String {
        var escaped = ""
        let html = XMLText.escaped(ReportText.visible(text)).replacingOccurrences(of: "|", with: "&#124;")
        for character in html {
            if "\\`*~".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
