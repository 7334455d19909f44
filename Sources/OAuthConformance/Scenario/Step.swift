import MockProvider

/// One thing the scenario asks of the client or the clock.
public struct Step: Sendable, Equatable {
    public var action: StepAction
    /// An outcome this step must have, beyond what `expect` states for the whole run.
    public var expectedOutcome: ExpectedOutcome?

    public init(_ action: StepAction, expecting expectedOutcome: ExpectedOutcome? = nil) {
        self.action = action
        self.expectedOutcome = expectedOutcome
    }
}

public enum StepAction: Sendable, Equatable {
    /// Obtain tokens with this grant.
    case login(GrantType)
    /// Call the protected resource through the client.
    case request(method: String, path: String)
    /// Move virtual time forward.
    case advance(Duration)
    /// Move virtual time to an instant computed from issued tokens and the client's profile.
    case advanceTo(TimeExpression)

    /// The step as a scenario file writes it.
    public var text: String {
        switch self {
        case .login(let grant): "login \(grant.rawValue)"
        case .request(let method, let path): "request \(method) \(path)"
        case .advance(let amount): "advance \(DurationText.format(amount))"
        case .advanceTo(let instant): "advance to \(instant)"
        }
    }
}

public enum ExpectedOutcome: Sendable, Equatable {
    case succeeds
    /// Fails with this category and, when given, this RFC 6749 §5.2 code.
    case fails(category: ErrorCategory?, oauthError: String?)
}
