import MockProvider
import Yams

/// Decodes `steps:`: what the client is asked to do, and how each step must end.
struct StepDecoder {
    let reader: YAMLReader

    static let stepActions = [
        "login", "authorize", "sign_in", "userinfo", "exchange", "device_sign_in", "native_sign_in", "mcp_sign_in",
        "mcp_call", "request",
        "restart",
        "concurrently", "advance",
        "advance_to",
        "wait", "revoke", "authorization_server",
    ]
    /// The steps a client carries out, the only ones `concurrently` can repeat.
    static let clientOperations = ["login", "request"]
    /// Every key a step may have: its action, and what goes beside a client step's.
    static let stepKeys = stepActions + ["outcome", "user_at_the_browser"]
    /// The steps that involve the client and so may state an `outcome`.
    static let stepsWithOutcome = [
        "login", "authorize", "sign_in", "userinfo", "exchange", "device_sign_in", "native_sign_in", "mcp_sign_in",
        "mcp_call", "request",
        "restart",
        "concurrently",
    ]

    func decode(_ node: Node) -> [Step]? {
        guard let items = reader.sequence(node, "steps") else { return nil }
        if items.isEmpty { reader.error("steps is empty; a scenario needs at least one step", at: node) }
        let steps = items.map(step)
        return steps.contains(where: { $0 == nil }) ? nil : steps.compactMap { $0 }
    }

    private func step(_ node: Node) -> Step? {
        guard
            let step = reader.mapping(
                node,
                "a step",
                allowedKeys: Self.stepKeys
            ),
            let actionKey = step.exactlyOne(of: Self.stepActions), let actionNode = step[actionKey]
        else { return nil }
        let action: StepAction? =
            switch actionKey {
            case "login", "request": clientOperation(actionKey, actionNode).map(StepAction.client)
            case "authorize": bare(actionNode, "authorize").map { .client(.authorize) }
            case "restart": bare(actionNode, "restart").map { .client(.restart) }
            case "sign_in": signIn(actionNode).map(StepAction.client)
            case "userinfo": bare(actionNode, "userinfo").map { .client(.userinfo) }
            case "exchange": bare(actionNode, "exchange").map { .client(.exchange) }
            case "device_sign_in": bare(actionNode, "device_sign_in").map { .client(.deviceSignIn) }
            case "native_sign_in": bare(actionNode, "native_sign_in").map { .client(.nativeSignIn) }
            case "mcp_sign_in": bare(actionNode, "mcp_sign_in").map { .client(.mcpSignIn) }
            case "mcp_call": mcpMethod(actionNode).map { .client(.mcpCall(method: $0)) }
            case "revoke": reader.enumeration(actionNode, "revoke", as: RevocationTarget.self).map(StepAction.revoke)
            case "authorization_server":
                reader.enumeration(actionNode, "authorization_server", as: AuthorizationServerID.self).map {
                    StepAction.moveMCPServer(to: $0)
                }
            case "concurrently": concurrently(actionNode)
            case "advance": reader.duration(actionNode, "advance").map(StepAction.advance)
            case "wait": wait(actionNode)
            default: reader.timeExpression(actionNode, "advance_to").map(StepAction.advanceTo)
            }
        let outcome = step["outcome"].map(expectedOutcome)
        guard let action, outcome != .some(nil) else { return nil }
        if outcome != nil, !Self.stepsWithOutcome.contains(actionKey), let key = step.entries["outcome"]?.key {
            reader.error(
                "'\(actionKey)' does not involve the client and has no outcome; 'outcome' goes with \(YAMLReader.list(Self.stepsWithOutcome))",
                at: key
            )
            return nil
        }
        var decoded = Step(action, expecting: outcome.flatMap { $0 })
        if let node = step["user_at_the_browser"] {
            guard Self.stepsWithOutcome.contains(actionKey), let present = reader.bool(node, "user_at_the_browser")
            else {
                if !Self.stepsWithOutcome.contains(actionKey) {
                    reader.error(
                        "'\(actionKey)' does not involve the client; 'user_at_the_browser' goes with \(YAMLReader.list(Self.stepsWithOutcome))",
                        at: node
                    )
                }
                return nil
            }
            decoded.userAtTheBrowser = present
        }
        return decoded
    }

    private func clientOperation(_ key: String, _ node: Node) -> ClientOperation? {
        if key == "login" {
            return reader.grant(node, "login grant", among: GrantType.loginGrants).map(ClientOperation.login)
        }
        return resourceRequest(node)
    }

    /// `sign_in: any`, the client's own way (the first method of its profile's `sign_in` the
    /// scenario can use), or `sign_in: openid`; with no value, OpenID Connect sign-in, as before
    /// the sign-in was the client's.
    private func signIn(_ node: Node) -> ClientOperation? {
        if case .scalar(let scalar) = node, scalar.string.isEmpty || scalar.string == "~" || scalar.string == "null" {
            return .signIn
        }
        if case .mapping(let mapping) = node, mapping.isEmpty { return .signIn }
        switch reader.string(node, "sign_in") {
        case "any"?: return .signInAsTheClientDoes
        case "openid"?: return .signIn
        case let other?:
            reader.error(
                "sign_in is 'any' (the client's own way, as its profile declares) or 'openid', not '\(other)'; a particular grant is 'login: password', 'authorize:', 'native_sign_in:' or 'device_sign_in:'",
                at: node
            )
            return nil
        case nil: return nil
        }
    }

    /// `- authorize:` or `- restart:`: a step that takes no value (YAML null, or `{}`).
    private func bare(_ node: Node, _ key: String) -> Void? {
        switch node {
        case .scalar(let scalar) where scalar.string.isEmpty || scalar.string == "~" || scalar.string == "null":
            return ()
        case .mapping(let mapping) where mapping.isEmpty:
            return ()
        default:
            reader.error("'\(key)' takes no value; write '- \(key):' on its own", at: node)
            return nil
        }
    }

    /// `concurrently: { times: 20, step: { request: GET /resource } }`.
    private func concurrently(_ node: Node) -> StepAction? {
        guard let body = reader.mapping(node, "concurrently", allowedKeys: ["times", "step"]),
            let times = body.required("times", hint: " (how many at once, e.g. times: 20)")
                .flatMap({ reader.int($0, "concurrently.times", in: 1...StepAction.mostConcurrent) }),
            let stepNode = body.required("step", hint: " (e.g. step: { request: GET /resource })")
        else { return nil }
        if case .mapping(let mapping) = stepNode, let outcome = mapping.first(where: { $0.key.string == "outcome" }) {
            reader.error(
                "put 'outcome' beside 'concurrently'; it then applies to each of the \(times) operations",
                at: outcome.key
            )
            return nil
        }
        guard let inner = reader.mapping(stepNode, "concurrently.step", allowedKeys: Self.clientOperations),
            let key = inner.exactlyOne(of: Self.clientOperations), let operationNode = inner[key],
            let operation = clientOperation(key, operationNode)
        else { return nil }
        return .concurrently(times: times, operation)
    }

    /// `wait: 200ms`: real time, bounded so a scenario cannot stall CI.
    private func wait(_ node: Node) -> StepAction? {
        guard let amount = reader.duration(node, "wait") else { return nil }
        guard amount <= StepAction.longestWait else {
            reader.error(
                "wait is real time and at most \(DurationText.format(StepAction.longestWait)); to move the scenario's clock, use advance",
                at: node
            )
            return nil
        }
        return .wait(amount)
    }

    private static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// `request: GET /resource`.
    private func resourceRequest(_ node: Node) -> ClientOperation? {
        guard let text = reader.string(node, "request") else { return nil }
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 2, Self.methods.contains(parts[0]), parts[1].hasPrefix("/") else {
            reader.error(
                "request must read 'METHOD /path', e.g. 'GET /resource' (methods: \(YAMLReader.list(Self.methods)))",
                at: node
            )
            return nil
        }
        return .request(method: parts[0], path: parts[1])
    }

    /// `mcp_call: tools/call`: a JSON-RPC method name, one word (MCP method names are such as
    /// `initialize`, `tools/list`, `tools/call`).
    private func mcpMethod(_ node: Node) -> String? {
        guard let method = reader.string(node, "mcp_call") else { return nil }
        guard !method.isEmpty, !method.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "\\" }) else {
            reader.error("mcp_call names one MCP method, such as 'tools/call', not '\(method)'", at: node)
            return nil
        }
        return method
    }

    /// `outcome: succeeds`, `outcome: succeeds_or_refuses`, `outcome: { error: authorization_required }`
    /// or `outcome: { error: { category: oauth_error, oauth_error: invalid_scope } }`.
    private func expectedOutcome(_ node: Node) -> ExpectedOutcome? {
        if case .scalar = node {
            switch reader.string(node, "outcome") {
            case "succeeds"?: return .succeeds
            case "succeeds_or_refuses"?: return .succeedsOrRefuses
            default:
                reader.error("outcome must be 'succeeds', 'succeeds_or_refuses' or { error: CATEGORY }", at: node)
                return nil
            }
        }
        guard let outcome = reader.mapping(node, "outcome", allowedKeys: ["error"]),
            let errorNode = outcome.required("error")
        else { return nil }
        if case .scalar = errorNode {
            return reader.enumeration(errorNode, "error category", as: ErrorCategory.self).map {
                .fails(category: $0, oauthError: nil)
            }
        }
        guard let error = reader.mapping(errorNode, "outcome.error", allowedKeys: ["category", "oauth_error"]) else {
            return nil
        }
        let category = error["category"].flatMap { reader.enumeration($0, "error category", as: ErrorCategory.self) }
        let code = error["oauth_error"].flatMap { reader.string($0, "oauth_error") }
        return .fails(category: category, oauthError: code)
    }
}
