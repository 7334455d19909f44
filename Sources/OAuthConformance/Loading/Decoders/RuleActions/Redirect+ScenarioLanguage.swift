import MockProvider
import Yams

extension Redirect: ScenarioRuleAction {
    static let key = "redirect"

    /// `redirect: { status: 307, to: other_origin }` or `to: http://127.0.0.1:9999`.
    static func decode(_ node: Node, reader: YAMLReader) -> Redirect? {
        guard let redirect = reader.mapping(node, "redirect", allowedKeys: ["status", "to"]),
            let targetNode = redirect.required("to", hint: " (other_origin, or a base URL)"),
            let target = reader.string(targetNode, "redirect.to")
        else { return nil }
        let status = redirect["status"].flatMap { reader.int($0, "redirect.status", in: 300...399) } ?? 307
        if target == "other_origin" { return Redirect(status: status, to: .otherOrigin) }
        guard target.hasPrefix("http://") || target.hasPrefix("https://") else {
            reader.error(
                "redirect.to must be other_origin or a base URL such as http://127.0.0.1:8080, not '\(target)'",
                at: targetNode
            )
            return nil
        }
        return Redirect(status: status, to: .base(target))
    }

    var explanation: String {
        let target =
            switch target {
            case .otherOrigin: "another origin"
            case .base(let base): base
            }
        return "redirects with HTTP \(status) to \(target)"
    }
}
