import MockProvider

/// Everything a run produced, which is all the checks may look at: what the client was asked
/// and how it answered, every request the provider saw, every token it issued.
public struct Transcript: Sendable {
    public var steps: [StepRecord]
    public var journal: [JournalEntry]
    public var issuedTokens: [IssuedToken]
    public var profile: ClientProfile

    public init(steps: [StepRecord], journal: [JournalEntry], issuedTokens: [IssuedToken], profile: ClientProfile) {
        self.steps = steps
        self.journal = journal
        self.issuedTokens = issuedTokens
        self.profile = profile
    }

    /// The issued token with this value, e.g. to name `at-2` as `access_token#2`.
    public func issuedToken(withValue value: String) -> IssuedToken? {
        issuedTokens.first { $0.value == value }
    }
}

public struct StepRecord: Sendable {
    /// 1-based, as the scenario file lists steps.
    public var number: Int
    public var step: Step
    /// Virtual time when the step began.
    public var startedAt: Duration
    public var result: StepResult
    /// Journal sequence numbers of the requests made during the step.
    public var journalSequences: ClosedRange<Int>?
}

public enum StepResult: Sendable, Equatable {
    /// The client's report of a login or request.
    case client(ClientOutcome)
    /// The clock moved to this instant.
    case clockMoved(to: Duration)
}
