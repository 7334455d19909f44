import MockProvider
import Yams

/// Decodes `steps:`: what the client is asked to do, and how each step must end.
struct StepDecoder {
    let reader: YAMLReader

    static let stepActions = ["login", "request", "advance", "advance_to"]

    func decode(_ node: Node) -> [Step]? {
        guard let items = reader.sequence(node, "steps") else { return nil }
        if items.isEmpty { reader.error("steps is empty; a scenario needs at least one step", at: node) }
        let steps = items.map(step)
        return steps.contains(where: { $0 == nil }) ? nil : steps.compactMap { $0 }
    }

    private func step(_ node: Node) -> Step? {
        guard let step = reader.mapping(node, "a step", allowedKeys: Self.stepActions + ["outcome"]),
              let actionKey = step.exactlyOne(of: Self.stepActions), let actionNode = step[actionKey]
        else { return nil }
        let action: StepAction? = switch actionKey {
        case "login": reader.enumeration(actionNode, "login grant", as: GrantType.self).map(StepAction.login)
        case "request": resourceRequest(actionNode)
        case "advance": reader.duration(actionNode, "advance").map(StepAction.advance)
        default: reader.timeExpression(actionNode, "advance_to").map(StepAction.advanceTo)
        }
        let outcome = step["outcome"].map(expectedOutcome)
        guard let action, outcome != .some(nil) else { return nil }
        return Step(action, expecting: outcome.flatMap { $0 })
    }

    private static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// `request: GET /resource`.
    private func resourceRequest(_ node: Node) -> StepAction? {
        guard let text = reader.string(node, "request") else { return nil }
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 2, Self.methods.contains(parts[0]), parts[1].hasPrefix("/") else {
            reader.error("request must read 'METHOD /path', e.g. 'GET /resource' (methods: \(YAMLReader.list(Self.methods)))", at: node)
            return nil
        }
        return .request(method: parts[0], path: parts[1])
    }

    /// `outcome: succeeds`, `outcome: { error: authorization_required }` or
    /// `outcome: { error: { category: oauth_error, oauth_error: invalid_scope } }`.
    private func expectedOutcome(_ node: Node) -> ExpectedOutcome? {
        if case .scalar = node {
            guard reader.string(node, "outcome") == "succeeds" else {
                reader.error("outcome must be 'succeeds' or { error: CATEGORY }", at: node)
                return nil
            }
            return .succeeds
        }
        guard let outcome = reader.mapping(node, "outcome", allowedKeys: ["error"]),
              let errorNode = outcome.required("error")
        else { return nil }
        if case .scalar = errorNode {
            return reader.enumeration(errorNode, "error category", as: ErrorCategory.self).map { .fails(category: $0, oauthError: nil) }
        }
        guard let error = reader.mapping(errorNode, "outcome.error", allowedKeys: ["category", "oauth_error"]) else { return nil }
        let category = error["category"].flatMap { reader.enumeration($0, "error category", as: ErrorCategory.self) }
        let code = error["oauth_error"].flatMap { reader.string($0, "oauth_error") }
        return .fails(category: category, oauthError: code)
    }
}
