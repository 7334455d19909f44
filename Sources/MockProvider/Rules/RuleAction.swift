/// What a rule does instead of answering correctly: one `ProviderMisbehaviour` of any kind.
/// Equal to another when both are of the same kind and equal, so rules and settings compare.
public struct RuleAction: Sendable, Equatable {
    public let misbehaviour: any ProviderMisbehaviour

    public init(_ misbehaviour: any ProviderMisbehaviour) {
        self.misbehaviour = misbehaviour
    }

    public static func == (lhs: RuleAction, rhs: RuleAction) -> Bool {
        lhs.misbehaviour.isEqual(to: rhs.misbehaviour)
    }

    /// The answer to a request the rule took.
    func answer(_ context: MisbehaviourContext) -> ProviderResponse { misbehaviour.answer(context) }

    /// See `ProviderMisbehaviour.action(forCall:)`.
    func action(forCall call: Int) -> RuleAction? { misbehaviour.action(forCall: call) }

    /// See `ProviderMisbehaviour.contains(where:)`.
    public func contains(where predicate: (any ProviderMisbehaviour) -> Bool) -> Bool {
        misbehaviour.contains(where: predicate)
    }
}
