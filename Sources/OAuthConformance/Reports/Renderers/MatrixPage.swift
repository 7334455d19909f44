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
        var details: [String] = []
        var page = Self.head
        page += "<h1>OAuth client conformance</h1>\n"
        page +=
            "<p class=\"meta\">\(results.count) client\(results.count == 1 ? "" : "s") × \(Self.scenarioRows(results).count) scenarios"
            + " · harness \(Self.escaped(Set(results.map(\.harnessVersion)).sorted().joined(separator: ", ")))</p>\n"
        page += summary(results)
        page += "<table class=\"matrix\">\n<thead><tr><th>Scenario</th><th>Level</th>"
        page +=
            results.map { "<th class=\"client\">\(Self.escaped($0.client.label))</th>" }.joined()
            + "</tr></thead>\n<tbody>\n"
        var currentArea: String?
        for row in Self.scenarioRows(results) {
            if row.area != currentArea {
                currentArea = row.area
                page += "<tr class=\"area\"><th colspan=\"\(results.count + 2)\">\(Self.escaped(row.area))</th></tr>\n"
            }
            page +=
                "<tr><th class=\"scenario\"><code>\(Self.escaped(row.id))</code><div class=\"title\">\(Self.escaped(row.title))</div></th>"
            page += "<td class=\"level\">\(Self.escaped(row.level))</td>"
            for result in results {
                guard let scenario = result.scenarios.first(where: { $0.id == row.id }) else {
                    page += "<td><span class=\"cell not-run\" title=\"not run for this client\">—</span></td>"
                    continue
                }
                let detail = "detail-\(details.count + 1)"
                details.append(self.detail(scenario, client: result.client, id: detail))
                page +=
                    "<td><button class=\"cell \(scenario.verdict.rawValue)\" data-detail=\"\(detail)\" "
                    + "title=\"\(Self.escaped(result.client.label)): \(scenario.verdict.rawValue)"
                    + (scenario.failingLevel.map { " at \($0.rawValue)" } ?? "")
                    + "\">\(scenario.verdict.label)</button></td>"
            }
            page += "</tr>\n"
        }
        page += "</tbody>\n</table>\n"
        page += details.joined()
        page += Self.tail
        return page
    }

    private func summary(_ results: [ConformanceResult]) -> String {
        var html =
            "<table class=\"summary\">\n<thead><tr><th>Client</th><th>Capabilities</th><th>Refresh window</th>"
            + "<th>Passed</th><th>Failed</th><th>Skipped</th><th>Errors</th><th>Expected failures</th><th>Tolerated failures</th><th>Time</th></tr></thead>\n<tbody>\n"
        for result in results {
            let client = result.client
            html +=
                "<tr class=\"\(result.conforms ? "conforms" : "nonconforming")\"><th>\(Self.escaped(client.label))"
                + (result.interrupted ? " <span class=\"note\">(interrupted)</span>" : "") + "</th>"
                + "<td>\(Self.escaped(client.capabilities.joined(separator: ", ")))</td><td>\(Self.escaped(client.refreshWindow ?? "none"))</td>"
                + VerdictRecord.allCases.map { "<td class=\"count \($0.rawValue)\">\(result.count($0))</td>" }.joined()
                + "<td>\(JUnitReport.seconds(milliseconds: result.milliseconds)) s</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    /// A cell's explanation, kept in a template until the cell is opened.
    private func detail(_ scenario: ScenarioRecord, client: ClientRecord, id: String) -> String {
        var html = "<template id=\"\(id)\">"
        html +=
            "<h2><span class=\"cell \(scenario.verdict.rawValue)\">\(scenario.verdict.label)</span> \(Self.escaped(scenario.id))</h2>"
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

    private struct Row {
        var id, title, area, level: String
    }

    /// Every scenario any client ran, by area and then id.
    private static func scenarioRows(_ results: [ConformanceResult]) -> [Row] {
        var rows: [String: Row] = [:]
        for scenario in results.flatMap(\.scenarios) where rows[scenario.id] == nil {
            rows[scenario.id] = Row(id: scenario.id, title: scenario.title, area: scenario.area, level: scenario.level)
        }
        return rows.values.sorted { $0.area == $1.area ? $0.id < $1.id : ConformanceResult.areaOrder($0.area, $1.area) }
    }

    /// Escaped as an XML attribute is, which is valid HTML text and attribute alike.
    private static func escaped(_ text: String) -> String {
        XMLText.escaped(text, forAttribute: true)
    }

    private static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>OAuth client conformance</title>
        <style>
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #1f2328; background: #fff; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        .meta { color: #59636e; margin: 0 0 16px; }
        table { border-collapse: collapse; margin-bottom: 24px; }
        th, td { border: 1px solid #d1d9e0; padding: 6px 10px; text-align: left; vertical-align: top; }
        thead th { background: #f6f8fa; position: sticky; top: 0; }
        .summary td.count { text-align: right; font-variant-numeric: tabular-nums; }
        .summary tr.conforms th { border-left: 4px solid #1a7f37; }
        .summary tr.nonconforming th { border-left: 4px solid #cf222e; }
        .matrix th.client { text-align: center; min-width: 110px; }
        .matrix tr.area th { background: #eef1f4; text-transform: uppercase; letter-spacing: .05em; font-size: 12px; }
        .matrix th.scenario { font-weight: normal; max-width: 620px; }
        .matrix .title { color: #59636e; font-size: 13px; }
        .matrix td { text-align: center; vertical-align: middle; }
        .matrix td.level { font-size: 12px; color: #59636e; }
        .cell { display: inline-block; min-width: 64px; padding: 3px 8px; border-radius: 6px; border: 1px solid transparent;
                font: 600 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; cursor: pointer; }
        .cell.passed { background: #dafbe1; color: #116329; border-color: #4ac26b; }
        .cell.failed { background: #ffebe9; color: #a40e26; border-color: #ff8182; }
        .cell.skipped { background: #f6f8fa; color: #59636e; border-color: #d1d9e0; }
        .cell.error { background: #fff8c5; color: #7d4e00; border-color: #d4a72c; }
        .cell.expected_failure { background: #f6f8fa; color: #8c959f; border-color: #d1d9e0; font-style: italic; }
        .cell.tolerated_failure { background: #fff1e5; color: #953800; border-color: #fb8f44; }
        .cell.inconclusive { background: #fbefff; color: #6e40c9; border-color: #d2a8ff; border-style: dashed; }
        .cell.not-run { color: #8c959f; cursor: default; }
        .note { color: #9a6700; font-weight: normal; }
        dialog { width: min(1100px, 92vw); max-height: 86vh; border: 1px solid #d1d9e0; border-radius: 8px; padding: 0; }
        dialog::backdrop { background: rgba(31, 35, 40, .45); }
        dialog .bar { position: sticky; top: 0; background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; text-align: right; }
        dialog .body { padding: 0 16px 16px; }
        dialog h2 { font-size: 16px; }
        pre { background: #f6f8fa; padding: 12px; border-radius: 6px; overflow-x: auto; white-space: pre; font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; }
        </style>
        </head>
        <body>

        """

    private static let tail = """
        <dialog id="detail"><div class="bar"><form method="dialog"><button>Close</button></form></div><div class="body"></div></dialog>
        <script>
        const dialog = document.getElementById("detail");
        for (const cell of document.querySelectorAll("button.cell")) {
          cell.addEventListener("click", () => {
            const body = dialog.querySelector(".body");
            body.replaceChildren(document.getElementById(cell.dataset.detail).content.cloneNode(true));
            dialog.showModal();
          });
        }
        </script>
        </body>
        </html>

        """
}
