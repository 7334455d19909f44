/// One way a rule makes the provider answer other than correctly: a scripted answer, the correct
/// answer altered, a refusal, a redirect. Each is one type in `Rules/Actions/`, holding what the
/// scenario says and how the provider answers with it; the provider only hands it the request.
/// A rule carries one as its `RuleAction`.
public protocol ProviderMisbehaviour: Sendable, Equatable {
    /// The answer to a request the rule took, in place of the correct one (which `context` serves
    /// on demand, for the misbehaviours that alter it).
    func answer(_ context: MisbehaviourContext) -> ProviderResponse

    /// The action that answers the rule's `call`-th matching request; `nil` lets the request pass
    /// on to later rules. Most answer every call alike; a sequence answers call by call.
    func action(forCall call: Int) -> RuleAction?

    /// Whether this misbehaviour, or one it is made of, satisfies `predicate`: the scenario asks
    /// which rules renew a DPoP nonce or place ID token times in client skews, sequences included.
    func contains(where predicate: (any ProviderMisbehaviour) -> Bool) -> Bool
}

extension ProviderMisbehaviour {
    public func action(forCall call: Int) -> RuleAction? { RuleAction(self) }

    public func contains(where predicate: (any ProviderMisbehaviour) -> Bool) -> Bool { predicate(self) }

    /// Equality across kinds: a misbehaviour equals only one of its own type that is equal.
    func isEqual(to other: any ProviderMisbehaviour) -> Bool { (other as? Self) == self }
}
