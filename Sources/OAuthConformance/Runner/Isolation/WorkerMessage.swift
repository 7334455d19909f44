import Foundation

/// One line an isolation worker writes to the run that supervises it: a scenario it starts, or
/// the result of one it finished, as the JSON result (format 1) records a scenario, with the
/// client as the worker knows it then (an adapter's version comes from its `hello`). The run
/// rebuilds from these lines the very result it would have had judging in its own process.
public enum WorkerMessage: Sendable, Equatable {
    case starting(scenario: String)
    case finished(ScenarioRecord, client: ClientRecord)

    /// The message as one line of JSON, without the line break:
    /// `{"starting":"refresh/x"}`, `{"client":{…},"finished":{…}}`.
    public var line: String {
        switch self {
        case .starting(let scenario): JSONReport.encode(Wire(starting: scenario), pretty: false)
        case .finished(let record, let client): JSONReport.encode(Wire(finished: record, client: client), pretty: false)
        }
    }

    /// Reads a line `line` wrote; `nil` for anything else.
    public init?(line: String) {
        guard let wire = try? JSONReport.decoder.decode(Wire.self, from: Data(line.utf8)) else { return nil }
        switch (wire.starting, wire.finished, wire.client) {
        case (let scenario?, nil, nil): self = .starting(scenario: scenario)
        case (nil, let record?, let client?): self = .finished(record, client: client)
        default: return nil
        }
    }

    /// The line's fields: exactly one message kind per line.
    private struct Wire: Codable {
        var starting: String?
        var finished: ScenarioRecord?
        var client: ClientRecord?
    }
}
