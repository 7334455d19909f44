import Foundation

/// The results of a run in isolation workers as they come in: a worker's records, errors for the
/// scenarios lost with a worker, let out in suite order; and the client as a worker last described it.
struct IsolatedResults {
    private let scenarios: [Scenario]
    private let positions: [String: Int]
    private var order: ScenarioOrder<ScenarioRecord>
    private(set) var client: ClientRecord

    init(scenarios: [Scenario], client: ClientRecord) {
        self.scenarios = scenarios
        positions = Dictionary(scenarios.enumerated().map { ($1.id, $0) }) { first, _ in first }
        order = ScenarioOrder(count: scenarios.count)
        self.client = client
    }

    /// A worker's result; returns the results now let out.
    mutating func finish(_ record: ScenarioRecord, client: ClientRecord) -> [ScenarioRecord] {
        self.client = client
        guard let position = positions[record.id] else { return [] }
        return order.finish(record, at: position)
    }

    /// A scenario lost with its worker, as an error; returns the results now let out.
    mutating func lose(_ scenario: String, reason: String, wallTime: Duration) -> [ScenarioRecord] {
        guard let position = positions[scenario] else { return [] }
        let result = ScenarioResult(
            scenario: scenarios[position],
            verdict: .error(reason),
            checks: [],
            transcript: nil,
            wallTime: wallTime
        )
        return order.finish(ScenarioRecord(result), at: position)
    }

    /// The run was stopped: every scenario without a result is an interrupted error, `running`
    /// those in flight then (with when they started). Returns the results now let out.
    mutating func interruptUnfinished(running: [String: ContinuousClock.Instant]) -> [ScenarioRecord] {
        let now = ContinuousClock.now
        var released: [ScenarioRecord] = []
        for position in order.missing {
            let scenario = scenarios[position]
            let start = running[scenario.id]
            let result = ScenarioResult.interrupted(
                scenario,
                wasRunning: start != nil,
                wallTime: start.map { now - $0 } ?? .zero
            )
            released += order.finish(ScenarioRecord(result), at: position)
        }
        return released
    }

    /// Every result so far, in suite order.
    var records: [ScenarioRecord] { order.all }
}
