import MockProvider
import Yams

extension AuthorizationResponseAlteration: ScenarioRuleAction {
    static let key = "authorization_response"

    /// `authorization_response: { state: omit | previous | VALUE, iss: omit | issuer_with_trailing_slash |
    /// issuer_with_upper_case_scheme | VALUE, error: access_denied }`.
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
            case "issuer_with_trailing_slash" where !allowingPrevious: return .respelled(.trailingSlash)
            case "issuer_with_upper_case_scheme" where !allowingPrevious: return .respelled(.upperCaseScheme)
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
