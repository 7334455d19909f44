import Yams

/// Decodes `expect:` (what a conforming client must have done) and `precondition:`, finding the
/// type of each item's check in `CheckRegistry` by its key and leaving the item to that type.
struct ExpectationDecoder {
    let reader: YAMLReader
    /// How many steps the scenario has, which `from_step` may name; unchecked when nil.
    var stepCount: Int? = nil
    /// The numbers of the steps that sign in the client's own way (`sign_in: any`).
    var signInSteps: [Int] = []

    /// The keys beside any check that say how it is judged: its own `level`, and the capabilities
    /// a client must declare for it to be judged (`requires`).
    static let judgingKeys = ["level", "requires"]

    /// Every key an item may have: the checks' own, those that go beside one of them, and the
    /// judging keys.
    static let itemKeys = CheckRegistry.keys + CheckRegistry.companionKeys + judgingKeys

    /// The expectations, with the level of each that states its own (`level: SHOULD` beside it)
    /// and the capabilities of each that is judged only for clients declaring them
    /// (`requires: [proactive_refresh]` beside it), by index.
    func decode(_ node: Node) -> (expectations: [Expectation], levels: [Int: Level], requirements: [Int: [Capability]])?
    {
        guard let items = reader.sequence(node, "expect") else { return nil }
        if items.isEmpty { reader.error("expect is empty; a scenario that expects nothing cannot fail", at: node) }
        let expectations = items.map(expectation)
        var levels: [Int: Level?] = [:]
        var requirements: [Int: [Capability]] = [:]
        for (index, item) in items.enumerated() {
            guard case .mapping(let mapping) = item else { continue }
            if let node = mapping["level"] { levels[index] = reader.enumeration(node, "level", as: Level.self) }
            if let node = mapping["requires"] { requirements[index] = reader.capabilities(node, "requires") }
        }
        guard !expectations.contains(where: { $0 == nil }), !levels.values.contains(where: { $0 == nil }) else {
            return nil
        }
        return (expectations.compactMap { $0 }, levels.compactMapValues { $0 }, requirements)
    }

    /// `precondition:`: what must have happened for the checks to mean anything, in the words of
    /// `expect:`. A precondition has no level of its own: one that does not hold makes the
    /// verdict inconclusive, whatever the level.
    func decodePreconditions(_ node: Node) -> [Expectation]? {
        guard let items = reader.sequence(node, "precondition") else { return nil }
        if items.isEmpty { reader.error("precondition is empty; leave it out instead", at: node) }
        for item in items {
            guard case .mapping(let mapping) = item else { continue }
            for key in Self.judgingKeys {
                if let node = mapping[key] {
                    reader.error(
                        "a precondition has no '\(key)': one that does not hold makes the verdict inconclusive",
                        at: node
                    )
                    return nil
                }
            }
        }
        let preconditions = items.map(expectation)
        guard !preconditions.contains(where: { $0 == nil }) else { return nil }
        return preconditions.compactMap { $0 }
    }

    /// One item: the check whose key it has, decoded by the check's own type (see `CheckRegistry`).
    private func expectation(_ node: Node) -> Expectation? {
        guard let item = reader.mapping(node, "an expectation", allowedKeys: Self.itemKeys),
            let key = item.exactlyOne(of: CheckRegistry.keys), let body = item[key],
            let check = CheckRegistry.check(forKey: key)
        else { return nil }
        for other in CheckRegistry.checks where other.key != key {
            for companion in other.companionKeys {
                if let entry = item.entries[companion] {
                    reader.error("'\(companion)' goes with '\(other.key)'", at: entry.key)
                }
            }
        }
        let source = CheckSource(
            key: key,
            body: body,
            item: item,
            reader: reader,
            stepCount: stepCount,
            signInSteps: signInSteps
        )
        return check.decode(source).map(Expectation.init)
    }
}
