import MockProvider
import Yams

extension ScriptedOAuthError: ScenarioRuleAction {
    static let key = "error"

    /// `error: { code: invalid_grant, description: …, uri: …, status: 400 }`.
    static func decode(_ node: Node, reader: YAMLReader) -> ScriptedOAuthError? {
        guard let error = reader.mapping(node, "error", allowedKeys: ["code", "description", "uri", "status"]),
            let code = error.required("code").flatMap({ reader.string($0, "error.code") })
        else { return nil }
        // RFC 7591 §3.2.2's codes are a registration's, which a rule at `register` answers with.
        if OAuthErrorCode(rawValue: code) == nil, RegistrationErrorCode(rawValue: code) == nil {
            // Unknown codes are legal (extensions), but a near miss of a standard code is a typo.
            if let near = Suggestions.closest(to: code, among: OAuthErrorCode.allCases.map(\.rawValue)) {
                reader.diagnostics.warning(
                    "'\(code)' is not an RFC 6749 §5.2 code; did you mean '\(near)'?",
                    at: reader.location(of: error["code"]!)
                )
            }
        }
        return ScriptedOAuthError(
            code: code,
            description: error["description"].flatMap { reader.string($0, "error.description") },
            uri: error["uri"].flatMap { reader.string($0, "error.uri") },
            status: error["status"].flatMap { reader.int($0, "error.status", in: 100...599) }
        )
    }

    var explanation: String {
        let status = status ?? OAuthErrorCode(rawValue: code)?.defaultStatus ?? 400
        let source = RegistrationErrorCode(rawValue: code) == nil ? "RFC 6749 §5.2" : "RFC 7591 §3.2.2"
        return "answers with the \(source) error \(code) (HTTP \(status))"
            + (description.map { ", description \"\($0)\"" } ?? "")
    }
}
