/// The filters of the HTML matrix: a checkbox per status some cell has and per level some row or
/// failure has, each with how many it covers, and a line saying how much is shown. The page's
/// script applies them to the list of failures and to the matrix alike (MatrixPage+Assets):
/// a row shows when its level is ticked and one of its cells has a ticked status; an entry in the
/// list shows when its status and level are. Everything starts ticked, so the page reads the
/// same to a browser that runs no script.
struct MatrixFilters {
    let grid: MatrixGrid
    let failures: MatrixFailureList

    var html: String {
        let cells = grid.cells.map(\.cell.scenario.verdict)
        let statuses = grid.verdicts.map { verdict in
            let count = cells.count { $0 == verdict }
            return Self.checkbox(
                name: "status",
                value: verdict.rawValue,
                label: "<span class=\"cell \(verdict.rawValue)\">\(verdict.badge)</span> \(count)",
                words: "\(verdict.words): \(count) cells"
            )
        }
        let rowLevels = grid.rows.map(\.level)
        let levels = Self.levels(rowLevels + (failures.problems + failures.expected).map(\.level)).map { level in
            let rows = rowLevels.count { $0 == level }
            return Self.checkbox(
                name: "level",
                value: level,
                label: "\(XMLText.escaped(level)) \(rows)",
                words: "\(level): \(rows) scenarios"
            )
        }
        return "<form id=\"filters\" class=\"filters\" aria-label=\"Filters\">"
            + "<fieldset><legend>Status</legend>\(statuses.joined())</fieldset>"
            + "<fieldset><legend>Level</legend>\(levels.joined())</fieldset>"
            + "<output id=\"filter-counts\" aria-live=\"polite\">\(Self.counts(grid, failures))</output>"
            + "</form>\n"
    }

    /// What the filters show, as the page's script writes it again on every change.
    private static func counts(_ grid: MatrixGrid, _ failures: MatrixFailureList) -> String {
        "Showing \(grid.rows.count) of \(grid.rows.count) scenarios, \(failures.problems.count) of "
            + "\(failures.problems.count) entries of What failed, \(failures.expected.count) of \(failures.expected.count) expected failures"
    }

    /// MUST, SHOULD, POLICY as the harness orders them, then any other a result file names.
    private static func levels(_ present: [String]) -> [String] {
        let known = Level.allCases.map(\.rawValue)
        let others = Set(present).subtracting(known).sorted()
        return known.filter(present.contains) + others
    }

    private static func checkbox(name: String, value: String, label: String, words: String) -> String {
        "<label title=\"\(XMLText.escaped(words, forAttribute: true))\"><input type=\"checkbox\" name=\"\(name)\""
            + " value=\"\(XMLText.escaped(value, forAttribute: true))\" checked> \(label)</label>"
    }
}
