import MockProvider
import Yams

/// What the scenario language knows of one provider misbehaviour: the key that names it in a
/// rule, how the value under that key decodes, and how `conformance explain` puts it in words.
/// Each sits beside its misbehaviour's name in this folder (`RetryLater+ScenarioLanguage.swift`
/// for `Rules/Actions/RetryLater.swift` in MockProvider, which knows nothing of YAML);
/// `RuleActionRegistry` lists them.
protocol ScenarioRuleAction: ProviderMisbehaviour {
    /// The key a rule names the action with: `retry_later`.
    static var key: String { get }

    /// The action the value under `key` describes; `nil` once every problem with it is reported.
    static func decode(_ node: Node, reader: YAMLReader) -> Self?

    /// Fits the matcher of a rule with this action to what the action can do, or reports why the
    /// two cannot go together and answers `false`; `keyNode` is where the rule names the action.
    /// Asked of a rule's own action, not of a sequence's steps.
    static func fit(_ matcher: inout RequestMatcher, keyNode: Node, reader: YAMLReader) -> Bool

    /// The action in words, after "for token request no. 1, ": "answers HTTP 503".
    var explanation: String { get }
}

extension ScenarioRuleAction {
    /// Most actions suit any request.
    static func fit(_ matcher: inout RequestMatcher, keyNode: Node, reader: YAMLReader) -> Bool { true }

    /// The value under `key` as a rule's action.
    static func ruleAction(_ node: Node, reader: YAMLReader) -> RuleAction? {
        decode(node, reader: reader).map { RuleAction($0) }
    }
}

extension RuleAction {
    /// See `ScenarioRuleAction.explanation`; every misbehaviour in `RuleActionRegistry` has one.
    var explanation: String {
        (misbehaviour as? any ScenarioRuleAction)?.explanation ?? "misbehaves (\(misbehaviour))"
    }
}
