import MockProvider

/// Everything a run produced, which is all the checks may look at: what the client was asked
/// and how it answered, every request the provider saw, every token it issued.
public struct Transcript: Sendable {
    public var steps: [StepRecord]
    public var journal: [JournalEntry]
    public var issuedTokens: [IssuedToken]
    /// The ID tokens the provider issued, as issued (alterations included), for the timeline.
    public var idTokens: [IssuedIDToken]
    public var profile: ClientProfile
    /// What the client printed while it ran (an out-of-process adapter's stderr, say), when the
    /// way it is driven captures any; reports show it beside the timeline.
    public var clientOutput: String?
    /// The canonical URI of the provider's MCP server in this run (`<origin>/mcp`), which the
    /// parameter check `mcp_server` compares `resource` with.
    public var mcpServer: String?

    public init(
        steps: [StepRecord],
        journal: [JournalEntry],
        issuedTokens: [IssuedToken],
        idTokens: [IssuedIDToken] = [],
        profile: ClientProfile,
        clientOutput: String? = nil,
        mcpServer: String? = nil
    ) {
        self.mcpServer = mcpServer
        self.steps = steps
        self.journal = journal
        self.issuedTokens = issuedTokens
        self.idTokens = idTokens
        self.profile = profile
        self.clientOutput = clientOutput
    }

    /// The number of the step the request with this sequence number was made in; nil for one no
    /// finished step made.
    public func step(of sequence: Int) -> Int? {
        steps.first { $0.journalSequences?.contains(sequence) ?? false }?.number
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
    /// Who the client held as signed in after the step, for a client that declares `openid`.
    public var identity: SignedInIdentity?
    /// For a sign-in that is the client's (`sign_in: any`), the method it signed in by.
    public var signedInBy: SignInMethod?

    public init(
        number: Int,
        step: Step,
        startedAt: Duration,
        result: StepResult,
        journalSequences: ClosedRange<Int>?,
        identity: SignedInIdentity? = nil,
        signedInBy: SignInMethod? = nil
    ) {
        self.signedInBy = signedInBy
        self.number = number
        self.step = step
        self.startedAt = startedAt
        self.result = result
        self.journalSequences = journalSequences
        self.identity = identity
    }
}

public enum StepResult: Sendable, Equatable {
    /// The client's report of a login or request.
    case client(ClientOutcome)
    /// The client's reports of the operations of a `concurrently` step, in the order they were started.
    case clients([ClientOutcome])
    /// The clock moved to this instant.
    case clockMoved(to: Duration)
    /// This much real time passed; the virtual clock did not move.
    case waited(Duration)
    /// The provider revoked these tokens.
    case revoked([TokenReference])
    /// The MCP server moved to this authorization server.
    case movedMCPServer(to: AuthorizationServerID)

    /// What the client reported, one outcome per operation; none for a clock step.
    public var clientOutcomes: [ClientOutcome] {
        switch self {
        case .client(let outcome): [outcome]
        case .clients(let outcomes): outcomes
        case .clockMoved, .waited, .revoked, .movedMCPServer: []
        }
    }
}
