/// Answer with this response instead of serving the request. No token is issued or checked.
public struct ScriptedResponse: ProviderMisbehaviour {
    public var response: ProviderResponse

    public init(_ response: ProviderResponse) {
        self.response = response
    }

    public func answer(_ context: MisbehaviourContext) -> ProviderResponse { response }
}

extension RuleAction {
    public static func respond(_ response: ProviderResponse) -> RuleAction { RuleAction(ScriptedResponse(response)) }
}
