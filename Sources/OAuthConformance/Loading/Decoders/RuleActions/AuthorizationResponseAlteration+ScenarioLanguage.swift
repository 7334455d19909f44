import MockProvider
import Yams

extension AuthorizationResponseAlteration: ScenarioRuleAction {
    static let key = "authorization_response"

    /// `authorization_response: { state: omit | previous | VALUE, iss: omit | VALUE, error: access_denied }`.
    static func decode(_ node: Node, reader: YAMLReader) -> AuthorizationResponseAlteration? {
        guard let alteration = reader.mapping(node, "authorization_response", allowedKeys: ["state", "iss", "error"])
        else { return nil }
        func change(_ key: String, allowingPrevious: Bool) -> Change? {
            guard let node = alteration[key], let text = reader.string(node, "authorization_response.\(key)") else {
                return nil
            }
            switch text {
            case "omit": return .omit
            case "previous" where allowingPrevious: return .previous
            default: return .replace(text)
            }
        }
        return AuthorizationResponseAlteration(
            state: change("state", allowingPrevious: true),
            issuer: change("iss", allowingPrevious: false),
            error: alteration["error"].flatMap { reader.string($0, "authorization_response.error") }
        )
    }

    var explanation: String {
        "alters the authorization redirect" + (error.map { " to carry error \($0)" } ?? "")
    }
}
