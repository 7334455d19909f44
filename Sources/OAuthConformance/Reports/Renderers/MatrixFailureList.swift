/// The "What failed" section of the HTML matrix, right under the summary: every result a reader
/// must look at, strictest first, without scrolling a matrix of hundreds of rows to find them.
///
/// It lists failures (`FAIL`), failures the run tolerated below its `--fail-on` level (`WARN`:
/// they do not break the build but are still wrong), errors (the scenario could not be judged
/// because something broke) and inconclusive results (the client never reached what the
/// scenario is about, so the suite says nothing about that behaviour). Failures and tolerated
/// failures come first, by the level they fail at, MUST before SHOULD before POLICY; then errors;
/// then inconclusive results; within each, in the matrix's order. Expected failures, which the
/// client's profile declares, follow folded away with the profile's reasons: known, not news.
/// Skipped scenarios are not listed; the summary counts them.
struct MatrixFailureList {
    struct Entry {
        var row: MatrixGrid.Row
        var cell: MatrixGrid.Cell
        /// The level the entry is shown, ordered and filtered at: the level a failure fails at;
        /// for an error or an inconclusive result, its scenario's.
        var level: String
    }

    /// Failures, tolerated failures, errors and inconclusive results, strictest first.
    let problems: [Entry]
    /// Failures the clients' profiles expect, in the same order.
    let expected: [Entry]

    /// Most characters quoted of what a client did: the whole text is in the cell's detail.
    private static let quoteLimit = 200

    init(_ grid: MatrixGrid) {
        var problems: [(key: [Int], entry: Entry)] = []
        var expected: [(key: [Int], entry: Entry)] = []
        for (rowIndex, row) in grid.rows.enumerated() {
            for (clientIndex, cell) in row.cells.enumerated() {
                guard let cell, let group = Self.group(cell.scenario.verdict) else { continue }
                let scenario = cell.scenario
                // A failure weighs what its strictest failed check does; an error or an inconclusive
                // result failed no check of the behaviour, so it weighs what its scenario does.
                let level = (group == 0 ? scenario.failingLevel : nil) ?? Level(rawValue: scenario.level)
                let entry = Entry(row: row, cell: cell, level: level?.rawValue ?? scenario.level)
                let key = [group, -(level?.strictness ?? -1), Self.rank(scenario.verdict), rowIndex, clientIndex]
                if scenario.verdict == .expectedFailure {
                    expected.append((key, entry))
                } else {
                    problems.append((key, entry))
                }
            }
        }
        self.problems = problems.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.entry)
        self.expected = expected.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.entry)
    }

    /// Failures first (tolerated and expected ones are failures too), then errors, then
    /// inconclusive results; nil for a verdict the list leaves out.
    private static func group(_ verdict: VerdictRecord) -> Int? {
        switch verdict {
        case .failed, .toleratedFailure, .expectedFailure: 0
        case .error: 1
        case .inconclusive: 2
        case .passed, .skipped: nil
        }
    }

    /// At one level, what breaks the build before what does not.
    private static func rank(_ verdict: VerdictRecord) -> Int {
        verdict == .failed ? 0 : 1
    }

    var html: String {
        var html =
            "<section id=\"failures\" aria-labelledby=\"failures-heading\">\n<h2 id=\"failures-heading\">What failed</h2>\n"
        if problems.isEmpty {
            html +=
                "<p class=\"nothing-failed\">Nothing failed: no scenario failed, stopped with an error or was inconclusive"
                + (expected.isEmpty ? "." : " beyond the failures the clients' profiles expect (below).") + "</p>\n"
        } else {
            let counts = [VerdictRecord.failed, .toleratedFailure, .error, .inconclusive].compactMap { verdict in
                let count = problems.count { $0.cell.scenario.verdict == verdict }
                return count == 0 ? nil : "\(count) \(verdict.words) (\(verdict.label))"
            }
            html +=
                "<p class=\"meta\">\(counts.joined(separator: " · ")): failures by level, MUST first, then errors, then inconclusive results."
                + " Each status opens the scenario's explanation and timeline.</p>\n"
            html += Self.table(problems)
        }
        if !expected.isEmpty {
            html +=
                "<details class=\"expected\"><summary>\(expected.count) expected failure\(expected.count == 1 ? "" : "s")"
                + " (XFAIL): known to the clients' profiles, with their reasons</summary>\n"
            html += Self.table(expected) + "</details>\n"
        }
        return html + "</section>\n"
    }

    private static func table(_ entries: [Entry]) -> String {
        var html =
            "<table class=\"failures\">\n<thead><tr><th>Status</th><th>Level</th><th>Scenario</th><th>Client</th>"
            + "<th>What failed</th></tr></thead>\n<tbody>\n"
        for entry in entries {
            let scenario = entry.cell.scenario
            html +=
                "<tr data-status=\"\(scenario.verdict.rawValue)\" data-level=\"\(escaped(entry.level))\">"
                + "<td>\(entry.cell.button)</td>"
                + "<td class=\"level\">\(escaped(entry.level))</td>"
                + "<td><a href=\"#\(entry.row.anchor)\" title=\"the scenario's row in the matrix\"><code>\(escaped(scenario.id))</code></a></td>"
                + "<td class=\"client\">\(escaped(entry.cell.client.label))</td>"
                + "<td class=\"what\">\(what(scenario))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// The first failed check as its statement and what was observed, how many more failed, and
    /// the reason the verdict gives: an error's message, why it is expected or tolerated.
    private static func what(_ scenario: ScenarioRecord) -> String {
        var html = ""
        let failed = scenario.failedChecks
        if let first = failed.first {
            html += "<div class=\"check\">\(escaped(ReportText.excerpt(first.leveledStatement, to: quoteLimit)))</div>"
            html +=
                "<div class=\"observed\">observed: \(escaped(ReportText.excerpt(first.observed, to: quoteLimit)))"
                + (failed.count > 1
                    ? " <span class=\"more\">(and \(failed.count - 1) more failed check\(failed.count == 2 ? "" : "s"))</span>"
                    : "")
                + "</div>"
        }
        let because: String? =
            switch scenario.verdict {
            case .error: "error"
            case .inconclusive: "inconclusive"
            case .expectedFailure: "expected by the profile"
            case .toleratedFailure: "tolerated"
            case .passed, .failed, .skipped: failed.isEmpty ? "failed" : nil
            }
        if let because {
            let reason = scenario.reason ?? (failed.isEmpty ? scenario.title : "")
            if !reason.isEmpty {
                html += "<div class=\"reason\">\(because): \(escaped(ReportText.excerpt(reason, to: quoteLimit)))</div>"
            }
        }
        return html
    }

    private static func escaped(_ text: String) -> String {
        XMLText.escaped(text, forAttribute: true)
    }
}
