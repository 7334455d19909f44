/// The table of checks in docs/scenario-language/expect.md, written from the checks themselves:
/// each check's rows in the registry's order, then a row per thing `never:` can forbid a request
/// to carry. `conformance list --format markdown --pages docs/checks` rewrites it between its
/// markers; a test holds the committed page to it.
public enum CheckReferenceTable {
    /// The page it lives in, from the repository root.
    public static let page = "docs/scenario-language/expect.md"
    static let startMarker =
        "<!-- The table below is written from each check's documentation (Sources/OAuthConformance/Checks/) by conformance list --format markdown --pages docs/checks; do not edit it here. -->"
    static let endMarker = "<!-- End of the written table. -->"

    static var lines: [String] {
        let rows =
            CheckRegistry.checks.flatMap { $0.documentation } + ForbiddenCarriage.allCases.map(\.documentation)
        var lines =
            [startMarker, "", "| Expectation | Passes when |", "|---|---|"]
            + rows.map { "| \($0.form) | \($0.passesWhen) |" }
        let examples = CheckRegistry.checks.compactMap { check in check.example.map { (check.key, $0) } }
        if !examples.isEmpty {
            lines += ["", "Examples written beside their checks:"]
            for (key, example) in examples {
                lines += ["", "`\(key)`:", "", "```yaml scenario"]
                lines += example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    .reversed().drop { $0.isEmpty }.reversed()
                lines.append("```")
            }
        }
        return lines + ["", endMarker]
    }

    /// `text` with the table between the markers written anew; nil when the markers are missing.
    public static func rewriting(_ text: String) -> String? {
        var result: [String] = []
        var inside = false
        var found = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == startMarker {
                inside = true
                found = true
                result += lines
            } else if line == endMarker {
                inside = false
            } else if !inside {
                result.append(line)
            }
        }
        return found && !inside ? result.joined(separator: "\n") : nil
    }
}
