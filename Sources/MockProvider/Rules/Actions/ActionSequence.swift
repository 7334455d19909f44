/// One action per matching call, in order ("503 twice, then the correct answer"); calls past the
/// end of the list are answered correctly, or by the rules after this one.
public struct ActionSequence: ProviderMisbehaviour {
    public var steps: [RuleAction]

    public init(_ steps: [RuleAction]) {
        self.steps = steps
    }

    /// A sequence takes only as many calls as it has steps.
    public func action(forCall call: Int) -> RuleAction? {
        call <= steps.count ? steps[call - 1] : nil
    }

    /// Only a sequence nested in a sequence is asked, and it answers correctly: the rule engine
    /// unpacks one level.
    public func answer(_ context: MisbehaviourContext) -> ProviderResponse { context.correctAnswer() }

    public func contains(where predicate: (any ProviderMisbehaviour) -> Bool) -> Bool {
        predicate(self) || steps.contains { $0.contains(where: predicate) }
    }
}

extension RuleAction {
    public static func sequence(_ steps: [RuleAction]) -> RuleAction { RuleAction(ActionSequence(steps)) }
}
