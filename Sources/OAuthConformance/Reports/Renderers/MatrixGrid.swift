/// What the HTML matrix shows, before any HTML: a row per scenario any client ran, by area and
/// then id, and in each row a cell per client. Every cell that ran has the id of its detail (the
/// explanation and timeline a click opens), which the list of failures opens too.
struct MatrixGrid {
    struct Row {
        var id, title, area, level: String
        /// `row-3`: the row's anchor, which an entry in the list of failures links to.
        var anchor: String
        /// One a client, in the clients' order; nil where the client did not run the scenario.
        var cells: [Cell?]
    }

    struct Cell {
        var client: ClientRecord
        var scenario: ScenarioRecord
        /// `detail-7`: the template holding the cell's explanation and timeline.
        var detail: String

        /// The cell's status as a button opening its detail, the same in the matrix and in the
        /// list of failures. Its label says in words what the symbol and the colour show.
        var button: String {
            let verdict = scenario.verdict
            let words = XMLText.escaped(
                "\(scenario.id), \(client.label): \(verdict.words)"
                    + (scenario.failingLevel.map { " at \($0.rawValue)" } ?? ""),
                forAttribute: true
            )
            return "<button class=\"cell \(verdict.rawValue)\" data-status=\"\(verdict.rawValue)\""
                + " data-detail=\"\(detail)\" aria-label=\"\(words)\" title=\"\(words)\">\(verdict.badge)</button>"
        }
    }

    let clients: [ClientRecord]
    let rows: [Row]

    init(_ results: [ConformanceResult]) {
        clients = results.map(\.client)
        // A merged result could name a scenario twice; the first record is the one shown, as before.
        let scenariosByClient = results.map { result in
            Dictionary(result.scenarios.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        var details = 0
        rows = Self.scenarioRows(results).enumerated().map { index, scenario in
            let cells = results.indices.map { client -> Cell? in
                guard let record = scenariosByClient[client][scenario.id] else { return nil }
                details += 1
                return Cell(client: results[client].client, scenario: record, detail: "detail-\(details)")
            }
            return Row(
                id: scenario.id,
                title: scenario.title,
                area: scenario.area,
                level: scenario.level,
                anchor: "row-\(index + 1)",
                cells: cells
            )
        }
    }

    /// Every cell that ran, row by row.
    var cells: [(row: Row, cell: Cell)] {
        rows.flatMap { row in row.cells.compactMap { $0.map { (row, $0) } } }
    }

    /// The verdicts some cell has, in the order reports count them.
    var verdicts: [VerdictRecord] {
        let present = Set(cells.map(\.cell.scenario.verdict))
        return VerdictRecord.allCases.filter(present.contains)
    }

    /// Every scenario any client ran, by area and then id.
    private static func scenarioRows(_ results: [ConformanceResult]) -> [ScenarioRecord] {
        var rows: [String: ScenarioRecord] = [:]
        for scenario in results.flatMap(\.scenarios) where rows[scenario.id] == nil {
            rows[scenario.id] = scenario
        }
        return rows.values.sorted { $0.area == $1.area ? $0.id < $1.id : ConformanceResult.areaOrder($0.area, $1.area) }
    }
}
