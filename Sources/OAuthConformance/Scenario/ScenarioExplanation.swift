import MockProvider

/// A scenario in prose, for `conformance explain`: what the provider does, what the client is
/// asked to do, what a conforming client must have done, and where the requirement comes from.
public enum ScenarioExplanation {
    public static func text(for scenario: Scenario) -> String {
        var lines = [scenario.id, scenario.title, ""]
        if let summary = scenario.summary {
            lines += [summary.trimmingCharacters(in: .whitespacesAndNewlines), ""]
        }
        lines.append("Level: \(scenario.level.rawValue) (\(scenario.level.meaning)).")
        lines.append("Spec: \(scenario.spec.isEmpty ? "none cited" : scenario.spec.joined(separator: "; ")).")
        var about = ["Area: \(scenario.area.rawValue)"]
        if !scenario.tags.isEmpty { about.append("tags: \(scenario.tags.joined(separator: ", "))") }
        if !scenario.parameters.isEmpty {
            about.append(
                "matrix: "
                    + scenario.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                        separator: ", "
                    )
            )
        }
        lines.append(about.joined(separator: "; ") + ".")
        if !scenario.requiredCapabilities.isEmpty {
            let signIn = scenario.requiredSignInMethods.map(\.rawValue).joined(separator: ", ")
            lines.append(
                "Requires: \(scenario.requiredCapabilities.map(\.rawValue).joined(separator: ", "))"
                    + (signIn.isEmpty ? "" : ", and sign_in \(signIn) in the profile")
                    + "; a client that does not declare it is skipped."
            )
        }
        lines += ["", "The provider:"] + provider(scenario.provider).map { "  - \($0)" }
        lines +=
            ["", "The steps:"]
            + scenario.steps.enumerated().map { index, step in
                "  \(index + 1). \(step.action.text)" + (step.expectedOutcome.map { ", which must end in \($0)" } ?? "")
            }
        lines += ["", "A conforming client (each check at its level):"] + checks(of: scenario).map { "  - \($0)" }
        if let file = scenario.file { lines += ["", "File: \(file)"] }
        return lines.joined(separator: "\n")
    }

    /// Every check the scenario makes, as `statement [LEVEL]`: each step's stated outcome at the
    /// scenario's level, then each expectation at its own.
    public static func checks(of scenario: Scenario) -> [String] {
        let outcomes = scenario.steps.enumerated().compactMap { index, step in
            step.expectedOutcome.map {
                "step \(index + 1) (\(step.action.text)) ends in \($0) [\(scenario.level.rawValue)]"
            }
        }
        return outcomes
            + scenario.expectations.enumerated().map { index, expectation in
                let requires =
                    scenario.expectationRequirements[index].map {
                        "; for clients with " + $0.map(\.rawValue).joined(separator: ", ")
                    } ?? ""
                return "\(expectation.statement) [\(scenario.level(ofExpectationAt: index).rawValue)\(requires)]"
            }
    }

    static func provider(_ settings: ProviderSettings) -> [String] {
        let tokens = settings.tokens
        var lines = [
            "issues access tokens that live \(DurationText.format(tokens.accessLifetime)) of virtual time",
            tokens.refreshLifetime.map { "issues refresh tokens that live \(DurationText.format($0))" }
                ?? "issues refresh tokens that do not expire",
            tokens.rotateRefreshTokens
                ? "rotates refresh tokens: each refresh issues a new one, and presenting a superseded one revokes the family"
                : "does not rotate refresh tokens",
        ]
        if let skew = clockSkew(settings) { lines.append(skew) }
        if settings.idTokens != IDTokenPolicy() { lines.append(IDTokenPolicyText.policy(settings.idTokens)) }
        if let dpop = settings.dpop { lines.append(dpopPolicy(dpop)) }
        if let path = settings.issuerPath {
            lines.append(
                "has the issuer <origin>\(path), whose metadata is served only at the URLs built from it (RFC 8414 §3.1, OpenID Connect Discovery §4)"
            )
        }
        if let mcp = mcpServer(settings.mcp) { lines.append(mcp) }
        if let registration = clientRegistration(settings.registration) { lines.append(registration) }
        lines += settings.rules.enumerated().map { index, rule in "rule \(index + 1): \(ruleText(rule))" }
        lines.append("otherwise answers as RFC 6749 and RFC 6750 describe")
        return lines
    }

    /// e.g. "offers DPoP (RFC 9449), binding tokens to the proof's key; demands a nonce at token".
    public static func dpopPolicy(_ policy: DPoPPolicy) -> String {
        var parts = [
            policy.answersBearer
                ? "offers DPoP (RFC 9449) but answers a proof with Bearer tokens"
                : "offers DPoP (RFC 9449), binding access tokens to the proof's key"
        ]
        if policy.refreshTokensBound { parts.append("binds refresh tokens too, as for a public client") }
        let servers = DPoPPolicy.NonceServer.allCases.filter(policy.nonceRequiredAt.contains).map(\.rawValue)
        if !servers.isEmpty { parts.append("demands a nonce at " + servers.joined(separator: " and ")) }
        if let every = policy.nonceRotatesEvery {
            parts.append("moves to a new nonce after every \(every) accepted proofs, handed out in DPoP-Nonce")
        }
        return parts.joined(separator: "; ")
    }

    /// e.g. "as the MCP server, names no metadata URL in its 401; lists scopes files:read in its Protected Resource Metadata".
    static func mcpServer(_ policy: MCPServerPolicy) -> String? {
        var parts: [String] = []
        switch policy.challengeNames {
        case .protectedResourceMetadata?: break
        case .protectedResourceMetadataRoot?: parts.append("names the root Protected Resource Metadata URL in its 401")
        case .protectedResourceMetadataNamed?:
            parts.append("names a Protected Resource Metadata URL of its own choosing (no well-known one) in its 401")
        default: parts.append("names no Protected Resource Metadata URL in its 401")
        }
        if let scope = policy.challengeScope { parts.append("challenges for scope \"\(scope)\"") }
        if let scopes = policy.scopesSupported {
            parts.append("lists scopes_supported \(scopes.joined(separator: " ")) in its Protected Resource Metadata")
        }
        for (method, scope) in policy.methodScopes.sorted(by: { $0.key < $1.key }) {
            parts.append(
                policy.scopesNeverEnough
                    ? "refuses \(method) with 403 insufficient_scope (scope \"\(scope)\") whatever the token was granted"
                    : "answers \(method) 403 insufficient_scope unless the token was granted \"\(scope)\""
            )
        }
        return parts.isEmpty ? nil : "as the MCP server (/mcp), " + parts.joined(separator: "; ")
    }

    /// e.g. "holds no registration for the client; offers Dynamic Client Registration (RFC 7591) at /register".
    static func clientRegistration(_ policy: ClientRegistrationPolicy) -> String? {
        guard policy != ClientRegistrationPolicy() else { return nil }
        var parts = [
            policy.preRegistered
                ? "holds the client's registration made before the scenario"
                : "holds no registration for the client, whose environment carries no client_id"
        ]
        if policy.dynamicRegistration { parts.append("offers Dynamic Client Registration (RFC 7591) at /register") }
        if policy.clientIDMetadataDocuments {
            parts.append("advertises Client ID Metadata Documents, taking an https URL with a path as client_id")
        }
        return parts.joined(separator: "; ")
    }

    /// e.g. "dates its answers 10m ahead of the clock its tokens live on (Date header)".
    static func clockSkew(_ settings: ProviderSettings) -> String? {
        settings.clockSkew.map { skew in
            "dates its answers \(DurationText.format(skew < .zero ? .zero - skew : skew)) \(skew < .zero ? "behind" : "ahead of") the clock its tokens live on (Date header)"
        }
    }

    /// e.g. "signs ID tokens ES256; its JWKS publishes every key; rotates its signing key at the 2nd ID token".
    static func idTokenPolicy(_ policy: IDTokenPolicy) -> String? {
        var parts: [String] = []
        if policy != IDTokenPolicy() { parts.append("signs ID tokens \(policy.algorithm.rawValue)") }
        if policy.lifetime != IDTokenPolicy().lifetime {
            parts.append("ID tokens live \(DurationText.format(policy.lifetime))")
        }
        if policy.publication == .allKeys { parts.append("its JWKS publishes an RSA and an EC key") }
        if let rotation = policy.rotation {
            let when =
                switch rotation.trigger {
                case .at(let instant): "at t=\(TimelineText.instant(instant))"
                case .fromIDToken(let ordinal): "from ID token no. \(ordinal) on"
                }
            parts.append(
                "rotates its signing key \(when)" + (rotation.retireOldKey ? ", retiring the old one" : "")
            )
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// e.g. "for token request no. 1 (grant refresh_token), answers HTTP 503".
    static func ruleText(_ rule: ProviderRule) -> String {
        let delivery = rule.delivery.map { "delivers the answer \($0.label)" }
        let effects = [rule.action?.explanation, delivery].compactMap { $0 }
        return "\(matcher(rule.match)), \(effects.isEmpty ? "answers correctly" : effects.joined(separator: " and "))"
    }

    private static func matcher(_ match: RequestMatcher) -> String {
        let filter = RequestFilter(endpoint: match.endpoint, grant: match.grant, path: match.path)
        let calls =
            switch match.calls {
            case .every: "for every \(filter.described(plural: false))"
            case .nth(let n): "for \(filter.described(plural: false, number: n))"
            case .range(let range):
                "for \(filter.described(plural: true)) no. \(range.lowerBound) to \(range.upperBound)"
            case .from(let n): "for \(filter.described(plural: true)) from no. \(n) on"
            }
        guard let during = match.during else { return calls }
        return calls
            + " between t=\(TimelineText.instant(during.lowerBound)) and t=\(TimelineText.instant(during.upperBound))"
    }
}
