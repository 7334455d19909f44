/// The conformance matrix: one self-contained HTML page (inline CSS and script, nothing fetched)
/// with a row per scenario and a column per client; each cell opens the scenario's explanation
/// and timeline for that client.
public struct MatrixPage: Sendable {
    /// Most characters of explanation and timeline kept for one cell.
    public var cellLimit: Int

    public init(cellLimit: Int = 64 * 1024) {
        self.cellLimit = cellLimit
    }

    public func render(_ results: [ConformanceResult]) -> String {
        let grid = MatrixGrid(results)
        let failures = MatrixFailureList(grid)
        var page = Self.head
        page += "<h1>OAuth client conformance</h1>\n"
        page +=
            "<p class=\"meta\">\(results.count) client\(results.count == 1 ? "" : "s") × \(grid.rows.count) scenarios"
            + " · harness \(Self.escaped(Set(results.map(\.harnessVersion)).sorted().joined(separator: ", ")))</p>\n"
        page += summary(results)
        // The filters act on the list of failures and on the matrix, so they stand above both.
        page += MatrixFilters(grid: grid, failures: failures).html
        page += failures.html
        page += matrix(grid)
        page += grid.cells.map { detail($0.cell) }.joined()
        page += Self.tail
        return page
    }

    private func matrix(_ grid: MatrixGrid) -> String {
        var html = "<h2 id=\"matrix-heading\">Every scenario</h2>\n"
        html +=
            "<table class=\"matrix\" aria-labelledby=\"matrix-heading\">\n<thead><tr><th>Scenario</th><th>Level</th>"
        html +=
            grid.clients.map { "<th class=\"client\">\(Self.escaped($0.label))</th>" }.joined()
            + "</tr></thead>\n<tbody>\n"
        var currentArea: String?
        for row in grid.rows {
            if row.area != currentArea {
                currentArea = row.area
                html +=
                    "<tr class=\"area\"><th colspan=\"\(grid.clients.count + 2)\">\(Self.escaped(row.area))</th></tr>\n"
            }
            html +=
                "<tr id=\"\(row.anchor)\" data-level=\"\(Self.escaped(row.level))\"><th class=\"scenario\">"
                + "<code>\(Self.escaped(row.id))</code><div class=\"title\">\(Self.escaped(row.title))</div></th>"
            html += "<td class=\"level\">\(Self.escaped(row.level))</td>"
            for cell in row.cells {
                html +=
                    cell.map { "<td>\($0.button)</td>" }
                    ?? "<td><span class=\"cell not-run\" title=\"not run for this client\">—</span></td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    private func summary(_ results: [ConformanceResult]) -> String {
        var html =
            "<table class=\"summary\">\n<thead><tr><th>Client</th><th>Capabilities</th><th>Refresh window</th>"
            + VerdictRecord.allCases.map { "<th>\($0.plural.prefix(1).uppercased() + $0.plural.dropFirst())</th>" }
            .joined()
            + "<th>Time</th></tr></thead>\n<tbody>\n"
        for result in results {
            let client = result.client
            html +=
                "<tr class=\"\(result.conforms ? "conforms" : "nonconforming")\"><th>\(Self.escaped(client.label))"
                + (result.interrupted ? " <span class=\"note\">(interrupted)</span>" : "") + "</th>"
                + "<td class=\"capabilities\">\(Self.capabilities(client.capabilities))</td>"
                + "<td>\(Self.escaped(client.refreshWindow ?? "none"))</td>"
                + VerdictRecord.allCases.map { "<td class=\"count \($0.rawValue)\">\(result.count($0))</td>" }.joined()
                + "<td class=\"time\">\(JUnitReport.seconds(milliseconds: result.milliseconds)) s</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// Folded to their number: a client declares up to twenty, which listed in full make each
    /// row of the summary several lines high and push what failed off the first screen.
    private static func capabilities(_ capabilities: [String]) -> String {
        guard !capabilities.isEmpty else { return "none" }
        return "<details><summary>\(capabilities.count) capabilit\(capabilities.count == 1 ? "y" : "ies")</summary>"
            + "\(escaped(capabilities.joined(separator: ", ")))</details>"
    }

    /// A cell's explanation, kept in a template until the cell is opened.
    private func detail(_ cell: MatrixGrid.Cell) -> String {
        let scenario = cell.scenario
        let client = cell.client
        var html = "<template id=\"\(cell.detail)\">"
        html +=
            "<h2><span class=\"cell \(scenario.verdict.rawValue)\">\(scenario.verdict.badge)</span> \(Self.escaped(scenario.id))</h2>"
        html +=
            "<p class=\"client\">\(Self.escaped(client.label)) · \(Self.escaped(scenario.level)) · \(Self.escaped(scenario.spec.joined(separator: ", ")))"
            + " · \(scenario.milliseconds) ms</p>"
        if let reason = scenario.reason {
            html += "<p class=\"reason\">\(Self.escaped(ReportText.capped(reason, to: cellLimit)))</p>"
        }
        let text = ReportText.capped(scenario.explanation, to: cellLimit)
        html += "<pre>\(Self.escaped(text))</pre>"
        if let output = scenario.clientOutput {
            html += "<h3>Client output</h3><pre>\(Self.escaped(ReportText.capped(output, to: cellLimit)))</pre>"
        }
        return html + "</template>\n"
    }

    /// Escaped as an XML attribute is, which is valid HTML text and attribute alike.
    private static func escaped(_ text: String) -> String {
        XMLText.escaped(text, forAttribute: true)
    }
}
