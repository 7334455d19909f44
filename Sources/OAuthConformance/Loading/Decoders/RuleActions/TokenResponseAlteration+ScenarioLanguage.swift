import MockProvider
import Yams

extension TokenResponseAlteration: ScenarioRuleAction {
    static let key = "token_response"

    /// `token_response: { refresh_token: null }` sets members; the reserved keys `omit: [names]`,
    /// `encoding: form`, `content_type: omit | TYPE` and `truncate_at: BYTES` change the rest.
    static func decode(_ node: Node, reader: YAMLReader) -> TokenResponseAlteration? {
        guard case .mapping(let mapping) = node else {
            reader.error("token_response must be a mapping of response members (and 'omit: [names]')", at: node)
            return nil
        }
        var alteration = TokenResponseAlteration()
        for (key, value) in mapping {
            guard let name = reader.string(key, "a token response member") else { continue }
            switch name {
            case "omit":
                alteration.omit.formUnion(reader.scalarList(value, "token_response.omit"))
            case "encoding":
                guard reader.string(value, "token_response.encoding") == "form" else {
                    reader.error(
                        "token_response.encoding must be 'form' (the body as application/x-www-form-urlencoded)",
                        at: value
                    )
                    continue
                }
                alteration.formEncoded = true
            case "content_type":
                alteration.contentType = reader.string(value, "token_response.content_type").map {
                    $0 == "omit" ? .omit : .replace($0)
                }
            case "truncate_at":
                alteration.truncatedTo = reader.int(value, "token_response.truncate_at", in: 0...1_048_576)
            default:
                if let json = reader.json(value, "token_response.\(name)") { alteration.set[name] = json }
            }
        }
        return alteration
    }

    var explanation: String {
        var changes = omit.sorted().map { "omits \($0)" }
        changes += set.keys.sorted().map { "sets \($0) to \(set[$0]!.serialized())" }
        if formEncoded { changes.append("form-encodes the body") }
        switch contentType {
        case .omit: changes.append("omits Content-Type")
        case .replace(let type): changes.append("labels it Content-Type \(type)")
        case nil: break
        }
        if let bytes = truncatedTo { changes.append("cuts the body after \(bytes) bytes") }
        return "serves the request, then " + changes.joined(separator: " and ") + " in the token response"
    }
}
