import MockProvider
import Yams

extension ScriptedResponse: ScenarioRuleAction {
    static let key = "respond"

    /// `respond: { status: 503, headers: { Retry-After: 1 }, body: busy }`.
    static func decode(_ node: Node, reader: YAMLReader) -> ScriptedResponse? {
        guard let respond = reader.mapping(node, "respond", allowedKeys: ["status", "headers", "body"]),
            let status = respond.required("status").flatMap({ reader.int($0, "status", in: 100...599) })
        else { return nil }
        var headers: [HeaderField] = []
        if let headersNode = respond["headers"], case .mapping(let mapping) = headersNode {
            for (nameNode, valueNode) in mapping {
                guard let name = reader.string(nameNode, "a header name"),
                    let value = reader.anyText(valueNode, "header \(name)")
                else { continue }
                let field = HeaderField(name, value)
                if !field.hasTokenName {
                    reader.error(
                        "header name '\(name)' is not an HTTP token (RFC 9110 §5.1): letters, digits and !#$%&'*+-.^_`|~ only",
                        at: nameNode
                    )
                } else if !field.hasSendableValue {
                    reader.error("header \(name): a value cannot hold CR, LF or NUL (RFC 9110 §5.5)", at: valueNode)
                } else if reader.printable(value, "header \(name)", at: valueNode) != nil {
                    // The provider could send the other controls; the client would refuse the whole response.
                    headers.append(field)
                }
            }
        } else if let headersNode = respond["headers"] {
            reader.error("respond.headers must be a mapping of header names to values", at: headersNode)
        }
        let body = respond["body"].flatMap { reader.string($0, "respond.body") } ?? ""
        return ScriptedResponse(ProviderResponse(status: status, headers: headers, body: body))
    }

    var explanation: String {
        let headers = response.headers.map { "\($0.name): \($0.value)" }
        return "answers HTTP \(response.status)"
            + (headers.isEmpty ? "" : " with \(headers.joined(separator: ", "))")
            + (response.body.isEmpty ? "" : " and body \"\(response.body)\"")
    }
}
