import MockProvider

/// `docs/checks.md`: the suite as one table (id, what the provider does, what a conforming client
/// does, level, source), generated from the scenario files by `conformance list --format
/// markdown`, so the page cannot drift from the suite.
public enum ChecksTable {
    public static func markdown(_ scenarios: [Scenario]) -> String {
        let files = Set(scenarios.compactMap(\.file)).count
        let byLevel = Level.allCases.map { level in "\(scenarios.count { $0.level == level }) \(level.rawValue)" }
        let checkLevels = scenarios.flatMap { scenario in
            scenario.steps.compactMap { $0.expectedOutcome.map { _ in scenario.level } }
                + scenario.expectations.indices.map(scenario.level(ofExpectationAt:))
        }
        let checksByLevel = Level.allCases.map { level in "\(checkLevels.count { $0 == level }) \(level.rawValue)" }
        var lines = [
            "# The built-in checks",
            "",
            "Generated from the scenario files by `conformance list --format markdown > docs/checks.md`; do not edit",
            "it by hand (a test fails when this page differs from what the generator prints).",
            "",
            "\(scenarios.count) scenario results from \(files) files: \(byLevel.joined(separator: ", ")). A matrix scenario gives one row",
            "per combination. Levels: MUST, the specification requires it; SHOULD, strong practice in mature client",
            "libraries; POLICY, libraries differ, so the check takes the value the client declares in its profile.",
            "A scenario's level is that of its title; each check has its own (the scenario's unless it says otherwise),",
            "and a failed scenario fails at the strictest level among its failed checks; `conformance run --fail-on`",
            "chooses which levels fail a run. \(checkLevels.count) checks: \(checksByLevel.joined(separator: ", ")).",
            "`conformance explain ID` tells one scenario in full.",
        ]
        for area in Area.allCases {
            let inArea = scenarios.filter { $0.area == area }
            guard !inArea.isEmpty else { continue }
            lines += [
                "", "## \(area.rawValue) (\(inArea.count))", "",
                "| id | the provider | a conforming client | level | checks, each at its level | source |",
                "|---|---|---|---|---|---|",
            ]
            lines += inArea.map { scenario in
                let cells = [
                    "`\(scenario.id)`", provider(scenario), scenario.title, scenario.level.rawValue,
                    ScenarioExplanation.checks(of: scenario).joined(separator: "; "),
                    source(scenario),
                ]
                return "| " + cells.map(cell).joined(separator: " | ") + " |"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The specification sections, then the OpenID Foundation modules that test the same thing.
    static func source(_ scenario: Scenario) -> String {
        let modules =
            scenario.oidfModules.isEmpty
            ? [] : ["OIDF " + scenario.oidfModules.map { "`\($0)`" }.joined(separator: ", ")]
        let parts = scenario.spec + modules
        return parts.isEmpty ? "—" : parts.joined(separator: "; ")
    }

    /// What the provider does differently from a correct one, in a few words.
    static func provider(_ scenario: Scenario) -> String {
        let settings = scenario.provider
        var parts: [String] = []
        if let tls = settings.tls { parts.append("serves HTTPS with a \(tls.rawValue) certificate") }
        if settings.clientAuthentication.usesAssertions {
            parts.append("authenticates the client by \(settings.clientAuthentication.rawValue) assertions only")
        }
        if settings.clientAuthentication == .publicClient {
            parts.append("registers a public client: client_id alone, PKCE required")
        }
        if let dpop = settings.dpop { parts.append(ScenarioExplanation.dpopPolicy(dpop)) }
        if settings.tokens.accessLifetime != TokenPolicy().accessLifetime {
            parts.append("access tokens live \(DurationText.format(settings.tokens.accessLifetime))")
        }
        if let refreshLifetime = settings.tokens.refreshLifetime {
            parts.append("refresh tokens live \(DurationText.format(refreshLifetime))")
        }
        if settings.tokens.rotateRefreshTokens { parts.append("rotates refresh tokens, reuse revokes the family") }
        if let idTokens = ScenarioExplanation.idTokenPolicy(settings.idTokens) { parts.append(idTokens) }
        if settings.appServerTokens.accessLifetime != TokenPolicy().accessLifetime {
            parts.append(
                "the app server's access tokens live \(DurationText.format(settings.appServerTokens.accessLifetime))"
            )
        }
        if let skew = ScenarioExplanation.clockSkew(settings) { parts.append(skew) }
        if !settings.tokens.revokeAllAt.isEmpty {
            parts.append(
                "revokes every token at "
                    + settings.tokens.revokeAllAt.map { "t=\(TimelineText.instant($0))" }.joined(separator: ", ")
            )
        }
        parts += settings.rules.map(ScenarioExplanation.ruleText)
        return parts.isEmpty ? "behaves correctly" : parts.joined(separator: "; ")
    }

    /// Text safe in a Markdown table cell: no pipes, no line breaks, no HTML.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "|", with: "\\|")
    }
}
