import MockProvider
import Yams

/// Decodes one scenario mapping into a `Scenario`, reporting every problem it finds.
struct ScenarioDecoder {
    static let formatVersion = 1
    static let topLevelKeys = [
        "conformance", "id", "title", "description", "area", "family", "level", "spec", "oidf", "tags", "requires",
        "matrix",
        "provider", "steps", "precondition", "expect",
    ]

    let reader: YAMLReader

    /// Decodes a scenario whose matrix placeholders `MatrixExpander` has already replaced.
    func decode(_ node: Node, parameters: [String: String] = [:]) -> Scenario? {
        guard let top = reader.mapping(node, "a scenario", allowedKeys: Self.topLevelKeys) else { return nil }
        checkFormatVersion(top)
        let id = top.required("id").flatMap { scenarioID($0) }
        let title = top.required("title").flatMap { reader.string($0, "title") }
        let summary = top["description"].flatMap { reader.string($0, "description") }
        let area = top.required("area").flatMap { reader.enumeration($0, "area", as: Area.self) }
        let family = top["family"].flatMap { reader.word($0, "family", among: BehaviourFamily.all.map(\.id)) }
        let level = top.required("level").flatMap { reader.enumeration($0, "level", as: Level.self) }
        let spec = top["spec"].map { reader.scalarList($0, "spec") } ?? []
        let oidf = top["oidf"].map { reader.scalarList($0, "oidf") } ?? []
        let tags = top["tags"].map(tagList) ?? []
        let requires = top["requires"].map { reader.capabilities($0, "requires") } ?? []
        let steps = top.required("steps").flatMap { StepDecoder(reader: reader).decode($0) }
        let signInSteps = steps?.numbersSigningInTheClientsWay ?? []
        let provider =
            top["provider"].map { ProviderDecoder(reader: reader, signInSteps: signInSteps).decode($0) }
            ?? ProviderSettings()
        let expectationDecoder = ExpectationDecoder(reader: reader, stepCount: steps?.count, signInSteps: signInSteps)
        let expect = top.required("expect", hint: " (what a conforming client must have done)").flatMap {
            expectationDecoder.decode($0)
        }
        let preconditions = top["precondition"].map { expectationDecoder.decodePreconditions($0) }
        if let steps, let provider, provider.mcp.secondAuthorizationServer == nil,
            let move = steps.firstIndex(where: { $0.action == .moveMCPServer(to: .second) }),
            let stepsNode = top["steps"]
        {
            reader.error(
                "step \(move + 1) moves the MCP server to the second authorization server, which this provider lacks: give it one with provider.mcp.second_authorization_server",
                at: stepsNode
            )
            return nil
        }
        guard let id, let title, let area, let level, let provider, let steps, let expect,
            preconditions != .some(nil)
        else { return nil }
        return Scenario(
            id: id,
            title: title,
            summary: summary,
            area: area,
            family: family.flatMap(BehaviourFamily.named),
            level: level,
            spec: spec,
            oidfModules: oidf,
            tags: tags,
            requires: requires,
            provider: provider,
            steps: steps,
            expectations: expect.expectations,
            preconditions: preconditions.flatMap { $0 } ?? [],
            expectationLevels: expect.levels,
            expectationRequirements: expect.requirements,
            parameters: parameters,
            file: reader.file
        )
    }

    private func checkFormatVersion(_ top: CheckedMapping) {
        guard let node = top.required("conformance", hint: " (the format version: conformance: \(Self.formatVersion))"),
            let version = reader.int(node, "conformance (the format version)", in: 0...Int.max)
        else { return }
        if version != Self.formatVersion {
            reader.error(
                "format version \(version) is not supported; this harness reads conformance: \(Self.formatVersion)",
                at: node
            )
        }
    }

    private func scenarioID(_ node: Node) -> String? {
        guard let id = reader.string(node, "id") else { return nil }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_/.")
        guard !id.isEmpty, id.allSatisfy(allowed.contains) else {
            reader.error(
                "id '\(id)' may hold only lowercase letters, digits and - _ / . (e.g. refresh/keeps-previous-refresh-token)",
                at: node
            )
            return nil
        }
        return id
    }

    /// `tags: [rotation, single-flight]`: words that `conformance list --tag` selects by.
    private func tagList(_ node: Node) -> [String] {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_.")
        let items: [Node] = if case .scalar = node { [node] } else { reader.sequence(node, "tags") ?? [] }
        return items.compactMap { item in
            guard let tag = reader.string(item, "a tag") else { return nil }
            guard !tag.isEmpty, tag.allSatisfy(allowed.contains) else {
                reader.error(
                    "tag '\(tag)' may hold only lowercase letters, digits and - _ . (e.g. single-flight)",
                    at: item
                )
                return nil
            }
            return tag
        }
    }

}
