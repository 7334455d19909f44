/// A Markdown summary for people, e.g. for `$GITHUB_STEP_SUMMARY`: the totals, a table by area,
/// and each scenario that did not pass with its explanation and timeline folded away.
public struct MarkdownReport: Sendable {
    /// Most characters shown for one scenario; GitHub caps a step summary at 1 MiB.
    public var scenarioLimit: Int

    public init(scenarioLimit: Int = 16 * 1024) {
        self.scenarioLimit = scenarioLimit
    }

    /// A section per client.
    public func render(_ results: [ConformanceResult]) -> String {
        results.map(section).joined(separator: "\n")
    }

    private func section(_ result: ConformanceResult) -> String {
        var lines = ["## OAuth conformance: \(Self.html(ReportText.visible(result.client.label)))", ""]
        var context = ["harness \(result.harnessVersion)", "seed \(result.seed)"]
        if let shard = result.shard { context.append("shard \(shard)") }
        lines.append(
            "\(result.conforms ? "✅" : "❌") \(result.scenarios.count) scenarios: \(result.tally) "
                + "in \(JUnitReport.seconds(milliseconds: result.milliseconds)) s (\(context.joined(separator: ", ")))"
                + (result.interrupted ? " — **interrupted**" : "")
        )
        let columns = result.shownVerdicts
        lines += [
            "",
            "| Area | "
                + columns.map { $0.plural.prefix(1).uppercased() + $0.plural.dropFirst() }.joined(separator: " | ")
                + " |",
            "|---|" + String(repeating: "---:|", count: columns.count),
        ]
        for (area, scenarios) in result.scenariosByArea {
            let counts = columns.map { verdict in String(scenarios.count { $0.verdict == verdict }) }
            lines.append("| \(Self.html(area)) | \(counts.joined(separator: " | ")) |")
        }
        let notPassing = result.scenarios.filter { $0.verdict == .failed || $0.verdict == .error }
        if !notPassing.isEmpty {
            lines += ["", "### Not passing", ""]
            for scenario in notPassing { lines += details(scenario) }
        }
        let tolerated = result.scenarios.filter { $0.verdict == .toleratedFailure }
        if !tolerated.isEmpty {
            lines += ["", "### Failures below --fail-on", ""]
            for scenario in tolerated { lines += details(scenario) }
        }
        let inconclusive = result.scenarios.filter { $0.verdict == .inconclusive }
        if !inconclusive.isEmpty {
            lines += ["", "### Inconclusive: the client never reached what the scenario is about", ""]
            for scenario in inconclusive { lines += details(scenario) }
        }
        let expected = result.scenarios.filter { $0.verdict == .expectedFailure }
        if !expected.isEmpty {
            lines += ["", "### Expected failures", ""]
            lines += expected.map {
                "- <code>\(Self.html($0.id))</code>: \(Self.html(ReportText.visible($0.reason ?? "expected failure")))"
            }
        }
        let skipped = result.scenarios.filter { $0.verdict == .skipped }
        if !skipped.isEmpty {
            lines += ["", "### Skipped", ""]
            lines += skipped.map {
                "- <code>\(Self.html($0.id))</code>: \(Self.html(ReportText.visible($0.reason ?? "skipped")))"
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func details(_ scenario: ScenarioRecord) -> [String] {
        let verdict =
            switch scenario.verdict {
            case .failed: "❌ FAIL" + (scenario.failingLevel.map { " (\($0.rawValue))" } ?? "")
            case .toleratedFailure: "⚠️ WARN" + (scenario.failingLevel.map { " (\($0.rawValue))" } ?? "")
            case .inconclusive: "❔ INCONC"
            default: "⚠️ ERROR"
            }
        let text = ReportText.capped(
            ReportText.visible(scenario.explanation, keepingLineBreaks: true),
            to: scenarioLimit
        )
        return [
            "<details><summary>\(verdict) <code>\(Self.html(scenario.id))</code>: \(Self.html(scenario.title))</summary>",
            "",
        ] + MarkdownText.codeBlock(text) + ["", "</details>", ""]
    }

    private static func html(_ text: String) -> String { MarkdownText.html(text) }
}
