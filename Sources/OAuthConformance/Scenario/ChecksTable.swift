import MockProvider

/// `docs/checks.md` and its pages: the suite as a table per behaviour family (id, what the provider
/// does, what a conforming client does, level, checks, source) on a page of its own, and a first
/// page that counts them, generated from the scenario files by `conformance list --format markdown
/// --pages docs/checks`, so the pages cannot drift from the suite.
public enum ChecksTable {
    /// One page, at a path relative to the folder of the first page: `checks.md`,
    /// `checks/proactive-refresh.md`.
    public struct Page: Sendable, Equatable {
        public var path: String
        public var text: String
    }

    /// The command that writes the repository's pages, as the pages and the test that compares
    /// them with the committed files quote it.
    public static let command = "conformance list --format markdown --pages docs/checks"

    /// Every page for these scenarios: first `name.md`, the introduction and a row per family;
    /// then `name/<family id>.md` per family that has scenarios, in the order of the clients
    /// table's columns, scenarios that name no family last. A family page links to the clients'
    /// verdicts (`../clients/families/<id>.md`) when its id is in `familiesWithClientResults`.
    public static func pages(
        _ scenarios: [Scenario],
        name: String = "checks",
        familiesWithClientResults: Set<String> = []
    ) -> [Page] {
        let grouped = Dictionary(grouping: scenarios) { $0.family ?? .other }
        let known = BehaviourFamily.all + [.other]
        let families = grouped.keys.sorted { left, right in
            let order = (known.firstIndex(of: left) ?? known.count, known.firstIndex(of: right) ?? known.count)
            return order.0 != order.1 ? order.0 < order.1 : left.id < right.id
        }
        var lines = introduction(scenarios)
        lines += [
            "", "## The families", "",
            "A page per behaviour family (the columns of the clients table, docs/clients.md), with a row per scenario.",
            "",
            "| family | scenarios, by level | checks, by level | folders |",
            "|---|---|---|---|",
        ]
        for family in families {
            let inFamily = grouped[family] ?? []
            let cells = [
                "[\(MarkdownText.inline(family.title))](\(name)/\(family.id).md)",
                counted(inFamily.map(\.level)), counted(checkLevels(inFamily)), folders(inFamily),
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        var pages = [Page(path: "\(name).md", text: lines.joined(separator: "\n") + "\n")]
        for family in families {
            let clientResults =
                familiesWithClientResults.contains(family.id) ? "../clients/families/\(family.id).md" : nil
            pages.append(
                Page(
                    path: "\(name)/\(family.id).md",
                    text: familyPage(family, grouped[family] ?? [], name: name, clientResults: clientResults)
                )
            )
        }
        return pages
    }

    private static let title = "The built-in checks"

    private static func introduction(_ scenarios: [Scenario]) -> [String] {
        let files = Set(scenarios.compactMap(\.file)).count
        let checks = checkLevels(scenarios)
        return [
            "# \(title)",
            "",
            "Generated from the scenario files, with a page per behaviour family, by",
            "`\(command)`; do not edit them by hand (a test fails when a page",
            "differs from what the generator writes).",
            "",
            "\(scenarios.count) scenario results from \(files) files: \(byLevel(scenarios.map(\.level), zeros: true)). A matrix scenario gives one row",
            "per combination. Levels: MUST, the specification requires it; SHOULD, strong practice in mature client",
            "libraries; POLICY, libraries differ, so the check takes the value the client declares in its profile.",
            "A scenario's level is that of its title; each check has its own (the scenario's unless it says otherwise),",
            "and a failed scenario fails at the strictest level among its failed checks; `conformance run --fail-on`",
            "chooses which levels fail a run. \(checks.count) checks: \(byLevel(checks, zeros: true)).",
            "`conformance explain ID` tells one scenario in full.",
        ]
    }

    private static func familyPage(
        _ family: BehaviourFamily,
        _ scenarios: [Scenario],
        name: String,
        clientResults: String?
    ) -> String {
        let checks = checkLevels(scenarios)
        let areas = folders(scenarios)
        var summary =
            "\(counted(scenarios.map(\.level), "scenario result")) in "
            + "\(areas.contains(",") ? "the folders" : "the folder") \(areas), with \(counted(checks, "check")); "
            + "the levels and the columns are explained on [the first page](../\(name).md)."
        if let clientResults {
            summary += " [Each client library's verdicts](\(clientResults)) on these scenarios."
        }
        var lines = [
            "[← \(title)](../\(name).md)", "",
            "# \(MarkdownText.inline(family.title))", "",
            MarkdownText.inline(family.summary), "",
            summary, "",
            "Generated with the other pages by `\(command)`; do not edit it by hand.", "",
            "| id | the provider | a conforming client | level | checks, each at its level | source |",
            "|---|---|---|---|---|---|",
        ]
        // The folders in the order of the suite, as on the first page.
        let ordered = Area.allCases.flatMap { area in scenarios.filter { $0.area == area } }
        lines += ordered.map { scenario in
            let cells = [
                "`\(scenario.id)`", provider(scenario), scenario.title, scenario.level.rawValue,
                ScenarioExplanation.checks(of: scenario).joined(separator: "; "),
                source(scenario),
            ]
            return "| " + cells.map(cell).joined(separator: " | ") + " |"
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The level of every check of these scenarios: each step with an outcome, each expectation.
    private static func checkLevels(_ scenarios: [Scenario]) -> [Level] {
        scenarios.flatMap { scenario in
            scenario.steps.compactMap { $0.expectedOutcome.map { _ in scenario.level } }
                + scenario.expectations.indices.map(scenario.level(ofExpectationAt:))
        }
    }

    /// `100 MUST, 70 SHOULD, 13 POLICY`; without the levels that have none unless `zeros`.
    private static func byLevel(_ levels: [Level], zeros: Bool) -> String {
        Level.allCases.compactMap { level in
            let count = levels.count { $0 == level }
            return count > 0 || zeros ? "\(count) \(level.rawValue)" : nil
        }.joined(separator: ", ")
    }

    /// `5 (3 MUST, 2 SHOULD)`, or with a noun `5 checks (3 MUST, 2 SHOULD)`: a count, and how
    /// many of each level.
    private static func counted(_ levels: [Level], _ noun: String? = nil) -> String {
        let counted = noun.map { "\(levels.count) \($0)\(levels.count == 1 ? "" : "s")" } ?? "\(levels.count)"
        return "\(counted) (\(byLevel(levels, zeros: false)))"
    }

    /// `refresh, errors`: the areas, which are the folders of the built-in suite, in suite order.
    private static func folders(_ scenarios: [Scenario]) -> String {
        Area.allCases.filter { area in scenarios.contains { $0.area == area } }.map { "`\($0.rawValue)`" }
            .joined(separator: ", ")
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
