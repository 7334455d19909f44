/// One expectation judged against a transcript.
public struct CheckResult: Codable, Sendable, Equatable {
    /// The kind of check, e.g. "count" or "timing": the failure type in reports.
    public var kind: String
    /// The expectation in words, e.g. "exactly 1 token requests (grant refresh_token)".
    public var statement: String
    public var passed: Bool
    /// The level the check was judged at: its own `level:`, or the scenario's. Absent only in a
    /// result file written before checks had levels.
    public var level: Level?
    public var expected: String
    public var observed: String
    /// Journal sequence numbers that show what was observed, marked in the timeline.
    public var evidence: [Int]

    public init(
        kind: String,
        statement: String,
        passed: Bool,
        level: Level? = nil,
        expected: String,
        observed: String,
        evidence: [Int] = []
    ) {
        self.kind = kind
        self.statement = statement
        self.passed = passed
        self.level = level
        self.expected = expected
        self.observed = observed
        self.evidence = evidence
    }

    /// One line for a failure message: the broken expectation, then expected against observed.
    public var summary: String {
        "\(statement)\(level.map { " [\($0.rawValue)]" } ?? ""): expected \(expected), observed \(observed)"
    }

    /// The same check, judged at `level`.
    func at(_ level: Level) -> CheckResult {
        var leveled = self
        leveled.level = level
        return leveled
    }
}
