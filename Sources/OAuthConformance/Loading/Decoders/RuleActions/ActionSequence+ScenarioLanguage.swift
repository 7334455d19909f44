import MockProvider
import Yams

extension ActionSequence: ScenarioRuleAction {
    static let key = "sequence"

    /// Every action but a sequence can be a step.
    static let stepActions = RuleActionRegistry.actions.filter { $0.key != key }

    /// `sequence: [{ respond: … }, { error: … }]`: one action per matching call.
    static func decode(_ node: Node, reader: YAMLReader) -> ActionSequence? {
        guard let items = reader.sequence(node, "sequence") else { return nil }
        let stepKeys = stepActions.map { $0.key }
        let steps = items.map { item -> RuleAction? in
            guard let step = reader.mapping(item, "a sequence item", allowedKeys: stepKeys),
                let key = step.exactlyOne(of: stepKeys),
                let action = stepActions.first(where: { $0.key == key })
            else { return nil }
            return action.ruleAction(step[key]!, reader: reader)
        }
        guard !steps.contains(where: { $0 == nil }) else { return nil }
        return ActionSequence(steps.compactMap { $0 })
    }

    var explanation: String {
        "answers call by call: " + steps.map(\.explanation).joined(separator: "; then ") + "; later calls correctly"
    }
}
