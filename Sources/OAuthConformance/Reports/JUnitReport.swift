import Foundation

/// JUnit XML as Jenkins, GitLab and GitHub reporters read it (valid against junit-10.xsd): a
/// testsuite per area, a testcase per scenario, the broken expectation as the failure message,
/// expected against observed and the timeline as its text.
public struct JUnitReport: Sendable {
    public init() {}

    public func render(_ run: SuiteRun) -> String {
        var xml = XMLBuilder()
        xml.start("testsuites", [
            ("name", "OAuthConformance"),
            ("tests", "\(run.results.count)"),
            ("failures", "\(run.failedCount)"),
            ("errors", "\(run.errorCount)"),
            ("time", Self.seconds(run.wallTime.seconds)),
        ])
        let areas = Dictionary(grouping: run.results, by: \.scenario.area)
        for area in Area.allCases {
            guard let results = areas[area] else { continue }
            let suite = SuiteRun(profile: run.profile, results: results, startedAt: run.startedAt, wallTime: .zero)
            xml.start("testsuite", [
                ("name", area.rawValue),
                ("tests", "\(results.count)"),
                ("failures", "\(suite.failedCount)"),
                ("errors", "\(suite.errorCount)"),
                ("skipped", "\(suite.skippedCount)"),
                ("time", Self.seconds(results.reduce(0) { $0 + $1.wallTime.seconds })),
                ("timestamp", Self.timestamp(run.startedAt)),
                ("hostname", "localhost"),
            ])
            properties(run.profile, into: &xml)
            for result in results { testcase(result, into: &xml) }
            xml.end()
        }
        xml.end()
        return xml.text
    }

    private func properties(_ profile: ClientProfile, into xml: inout XMLBuilder) {
        xml.start("properties")
        let values = [
            ("client.name", profile.name),
            ("client.version", profile.version),
            ("client.capabilities", profile.capabilities.map(\.rawValue).sorted().joined(separator: ",")),
            ("client.refresh_window", profile.refreshWindow.map(DurationText.format) ?? "none"),
            ("harness.version", Harness.version),
        ]
        for (name, value) in values { xml.empty("property", [("name", name), ("value", value)]) }
        xml.end()
    }

    private func testcase(_ result: ScenarioResult, into xml: inout XMLBuilder) {
        let scenario = result.scenario
        xml.start("testcase", [
            ("name", "\(scenario.id): \(scenario.title)"),
            ("classname", scenario.area.rawValue),
            ("time", Self.seconds(result.wallTime.seconds)),
        ])
        switch result.verdict {
        case .passed:
            break
        case .failed:
            let failed = result.failedChecks
            xml.element(
                "failure",
                [("message", failed.map(\.summary).joined(separator: "; ")), ("type", failed.first?.kind ?? "check")],
                content: failureText(result)
            )
        case .skipped(let reason):
            xml.element("skipped", [("message", reason)], content: reason)
        case .error(let problem):
            xml.element("error", [("message", problem), ("type", "harness")], content: failureText(result))
        }
        if let transcript = result.transcript {
            xml.element("system-out", content: TimelineText.lines(for: transcript).joined(separator: "\n"))
        }
        xml.end()
    }

    private func failureText(_ result: ScenarioResult) -> String {
        var lines = ["\(result.scenario.title)", "level: \(result.scenario.level.rawValue); spec: \(result.scenario.spec.joined(separator: ", "))"]
        if case .error(let problem) = result.verdict { lines.append("error: \(problem)") }
        for check in result.failedChecks {
            lines += ["", "✗ \(check.statement)", "  expected: \(check.expected)", "  observed: \(check.observed)"]
        }
        if let transcript = result.transcript {
            lines += ["", "timeline (virtual time; > marks the requests behind the failure):"]
            lines += TimelineText.lines(for: transcript, marking: Set(result.failedChecks.flatMap(\.evidence)))
        }
        return lines.joined(separator: "\n")
    }

    /// Seconds with three decimals and a dot whatever the locale, as the schema's SUREFIRE_TIME wants.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((max(value, 0) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
