import MockProvider
import Yams

extension DocumentAlteration: ScenarioRuleAction {
    static let key = "document"

    /// The endpoints that serve a metadata document.
    static let documentEndpoints: [Endpoint] = [
        .protectedResourceMetadata, .protectedResourceMetadataRoot, .protectedResourceMetadataNamed, .metadata,
        .openIDConfiguration,
    ]

    /// `document: { resource: https://other.example/mcp, omit: [code_challenge_methods_supported] }`
    /// sets members; the reserved key `omit: [names]` removes them.
    static func decode(_ node: Node, reader: YAMLReader) -> DocumentAlteration? {
        guard case .mapping(let mapping) = node, !mapping.isEmpty else {
            reader.error("document must be a mapping of document members (and 'omit: [names]')", at: node)
            return nil
        }
        var alteration = DocumentAlteration()
        for (key, value) in mapping {
            guard let name = reader.string(key, "a document member") else { continue }
            if name == "omit" {
                alteration.omit.formUnion(reader.scalarList(value, "document.omit"))
            } else if let json = reader.json(value, "document.\(name)") {
                alteration.set[name] = json
            }
        }
        return alteration
    }

    static func fit(_ matcher: inout RequestMatcher, keyNode: Node, reader: YAMLReader) -> Bool {
        guard let endpoint = matcher.endpoint, documentEndpoints.contains(endpoint) else {
            reader.error(
                "document alters a metadata document; name its endpoint: "
                    + documentEndpoints.map(\.rawValue).joined(separator: ", "),
                at: keyNode
            )
            return false
        }
        return true
    }

    var explanation: String {
        let changes =
            omit.sorted().map { "omits \($0)" } + set.keys.sorted().map { "sets \($0) to \(set[$0]!.serialized())" }
        return "serves the document, then " + changes.joined(separator: " and ") + " in it"
    }
}
