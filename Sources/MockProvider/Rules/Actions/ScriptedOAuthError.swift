/// Answer with an RFC 6749 §5.2 error body. The endpoints answer their own errors with it too.
public struct ScriptedOAuthError: ProviderMisbehaviour {
    public var code: String
    public var description: String?
    public var uri: String?
    /// `nil`: the status RFC 6749 §5.2 gives the code.
    public var status: Int?

    public init(code: String, description: String? = nil, uri: String? = nil, status: Int? = nil) {
        self.code = code
        self.description = description
        self.uri = uri
        self.status = status
    }

    public func answer(_ context: MisbehaviourContext) -> ProviderResponse { .oauthError(self) }
}

extension RuleAction {
    public static func oauthError(_ error: ScriptedOAuthError) -> RuleAction { RuleAction(error) }
}
