import MockProvider
import Yams

/// Decodes `provider:`: token lifetimes and the rules that make the provider misbehave.
struct ProviderDecoder {
    let reader: YAMLReader

    func decode(_ node: Node) -> ProviderSettings? {
        guard let provider = reader.mapping(node, "provider", allowedKeys: ["tokens", "rules"]) else { return nil }
        var settings = ProviderSettings()
        if let tokensNode = provider["tokens"],
           let tokens = reader.mapping(tokensNode, "provider.tokens", allowedKeys: ["access_lifetime", "refresh_lifetime", "rotate_refresh_tokens"]) {
            if let lifetime = tokens["access_lifetime"].flatMap({ reader.duration($0, "access_lifetime") }) {
                settings.tokens.accessLifetime = lifetime
            }
            settings.tokens.refreshLifetime = tokens["refresh_lifetime"].flatMap { reader.duration($0, "refresh_lifetime") }
            if let rotate = tokens["rotate_refresh_tokens"].flatMap({ reader.bool($0, "rotate_refresh_tokens") }) {
                settings.tokens.rotateRefreshTokens = rotate
            }
        }
        if let rulesNode = provider["rules"] {
            settings.rules = (reader.sequence(rulesNode, "provider.rules") ?? []).compactMap(rule)
        }
        return settings
    }

    private static let ruleActions = ["respond", "token_response", "error"]

    private func rule(_ node: Node) -> ProviderRule? {
        guard let rule = reader.mapping(node, "a rule", allowedKeys: ["when"] + Self.ruleActions) else { return nil }
        let matcher = rule["when"].map(requestMatcher) ?? RequestMatcher()
        guard let actionKey = rule.exactlyOne(of: Self.ruleActions), let actionNode = rule[actionKey] else { return nil }
        let action: RuleAction? = switch actionKey {
        case "respond": scriptedResponse(actionNode).map(RuleAction.respond)
        case "token_response": tokenAlteration(actionNode).map(RuleAction.alterTokenResponse)
        default: scriptedError(actionNode).map(RuleAction.oauthError)
        }
        guard let matcher, let action else { return nil }
        return ProviderRule(match: matcher, action: action)
    }

    private func requestMatcher(_ node: Node) -> RequestMatcher? {
        guard let when = reader.mapping(node, "when", allowedKeys: ["endpoint", "grant", "call"]) else { return nil }
        var matcher = RequestMatcher()
        matcher.endpoint = when["endpoint"].flatMap { reader.enumeration($0, "endpoint", as: Endpoint.self) }
        matcher.grant = when["grant"].flatMap { reader.enumeration($0, "grant", as: GrantType.self) }
        if let call = when["call"].flatMap({ reader.int($0, "call", in: 1...1_000_000) }) {
            matcher.calls = .nth(call)
        }
        return matcher
    }

    private func scriptedResponse(_ node: Node) -> ProviderResponse? {
        guard let respond = reader.mapping(node, "respond", allowedKeys: ["status", "headers", "body"]),
              let status = respond.required("status").flatMap({ reader.int($0, "status", in: 100...599) })
        else { return nil }
        var headers: [HeaderField] = []
        if let headersNode = respond["headers"], case .mapping(let mapping) = headersNode {
            for (name, value) in mapping {
                if let name = reader.string(name, "a header name"), let value = reader.string(value, "header \(name)") {
                    headers.append(HeaderField(name, value))
                }
            }
        } else if let headersNode = respond["headers"] {
            reader.error("respond.headers must be a mapping of header names to values", at: headersNode)
        }
        let body = respond["body"].flatMap { reader.string($0, "respond.body") } ?? ""
        return ProviderResponse(status: status, headers: headers, body: body)
    }

    /// `token_response: { refresh_token: null }` sets members; `omit: [refresh_token]` removes them.
    private func tokenAlteration(_ node: Node) -> TokenResponseAlteration? {
        guard case .mapping(let mapping) = node else {
            reader.error("token_response must be a mapping of response members (and 'omit: [names]')", at: node)
            return nil
        }
        var alteration = TokenResponseAlteration()
        for (key, value) in mapping {
            guard let name = reader.string(key, "a token response member") else { continue }
            if name == "omit" {
                alteration.omit.formUnion(reader.scalarList(value, "token_response.omit"))
            } else if let json = reader.json(value, "token_response.\(name)") {
                alteration.set[name] = json
            }
        }
        return alteration
    }

    private func scriptedError(_ node: Node) -> ScriptedOAuthError? {
        guard let error = reader.mapping(node, "error", allowedKeys: ["code", "description", "uri", "status"]),
              let code = error.required("code").flatMap({ reader.string($0, "error.code") })
        else { return nil }
        if OAuthErrorCode(rawValue: code) == nil {
            // Unknown codes are legal (extensions), but a near miss of a standard code is a typo.
            if let near = Suggestions.closest(to: code, among: OAuthErrorCode.allCases.map(\.rawValue)) {
                reader.diagnostics.warning("'\(code)' is not an RFC 6749 §5.2 code; did you mean '\(near)'?", at: reader.location(of: error["code"]!))
            }
        }
        return ScriptedOAuthError(
            code: code,
            description: error["description"].flatMap { reader.string($0, "error.description") },
            uri: error["uri"].flatMap { reader.string($0, "error.uri") },
            status: error["status"].flatMap { reader.int($0, "error.status", in: 100...599) }
        )
    }
}
