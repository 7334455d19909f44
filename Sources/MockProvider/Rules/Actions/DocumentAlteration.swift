/// Changes to a metadata document the provider serves: Protected Resource Metadata (RFC 9728),
/// authorization server metadata (RFC 8414) or the OpenID Provider configuration. A document that
/// names another resource or issuer than the one it was fetched for, or leaves out
/// `code_challenge_methods_supported`, is how a client's discovery checks are put to the test; and
/// the answer to a Dynamic Client Registration (RFC 7591 §3.2.1), whose `client_id` may go missing
/// or whose `token_endpoint_auth_method` may be another than the one asked for.
public struct DocumentAlteration: ProviderMisbehaviour {
    /// Members set to these values (added when absent), e.g. `"issuer": "https://attacker.example"`.
    public var set: [String: JSONValue]
    /// Members removed from the document.
    public var omit: Set<String>

    public init(set: [String: JSONValue] = [:], omit: Set<String> = []) {
        self.set = set
        self.omit = omit
    }

    /// Serves the request normally, then alters the document if it was served (200, or a
    /// registration's 201); a 404 or an error stays one.
    public func answer(_ context: MisbehaviourContext) -> ProviderResponse {
        let served = context.correctAnswer()
        guard (200..<300).contains(served.status), case .object(var members)? = JSONValue.parse(served.body) else {
            return served
        }
        for member in omit { members[member] = nil }
        members.merge(set) { _, scripted in scripted }
        var altered = served
        altered.body = JSONValue.object(members).serialized()
        return altered
    }
}

extension RuleAction {
    public static func alterDocument(_ alteration: DocumentAlteration) -> RuleAction {
        RuleAction(alteration)
    }
}
