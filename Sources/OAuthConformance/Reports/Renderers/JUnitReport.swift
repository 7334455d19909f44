import Foundation

/// JUnit XML as Jenkins, GitLab and GitHub reporters read it (valid against junit-10.xsd): a
/// testsuite per area, a testcase per scenario, the broken expectation as the failure message,
/// expected against observed and the timeline as its text, the timeline again as system-out.
/// A case's texts are capped; when one is cut, the full transcript goes to a file beside the
/// report, linked from system-out as `[[ATTACHMENT|path]]` (Jenkins' junit-attachments, GitLab).
public struct JUnitReport: Sendable {
    /// Most characters in a case's failure text, system-out or system-err.
    public var outputLimit: Int
    /// Most characters in a failure or error message, which dashboards show on one line.
    public var messageLimit: Int

    public init(outputLimit: Int = 64 * 1024, messageLimit: Int = 2_000) {
        self.outputLimit = outputLimit
        self.messageLimit = messageLimit
    }

    /// Where the attachments of a report written to `path` go: `junit.xml` → `junit-attachments/`, absolute.
    public static func attachmentDirectory(forReportAt path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.deletingPathExtension().path + "-attachments"
    }

    public func render(_ run: SuiteRun, attachmentDirectory: String? = nil) -> RenderedReport {
        render(ConformanceResult(run), attachmentDirectory: attachmentDirectory)
    }

    /// Without an attachment directory, cut texts are only cut.
    public func render(_ result: ConformanceResult, attachmentDirectory: String? = nil) -> RenderedReport {
        var xml = XMLBuilder()
        var attachments: [ReportAttachment] = []
        xml.start(
            "testsuites",
            [
                ("name", "OAuthConformance"),
                ("tests", "\(result.scenarios.count)"),
                ("failures", "\(result.count(.failed))"),
                ("errors", "\(result.count(.error))"),
                ("time", Self.seconds(milliseconds: result.milliseconds)),
            ]
        )
        var position = 0
        var nameCounts: [String: Int] = [:]
        for (area, scenarios) in result.scenariosByArea {
            xml.start(
                "testsuite",
                [
                    ("name", area),
                    ("tests", "\(scenarios.count)"),
                    ("failures", "\(scenarios.count { $0.verdict == .failed })"),
                    ("errors", "\(scenarios.count { $0.verdict == .error })"),
                    // Expected failures are skipped cases, as pytest reports its xfail: shown, not failing the build.
                    ("skipped", "\(scenarios.count { $0.verdict == .skipped || $0.verdict == .expectedFailure })"),
                    ("time", Self.seconds(milliseconds: scenarios.reduce(0) { $0 + $1.milliseconds })),
                    ("timestamp", Self.timestamp(result.startedAt)),
                    ("hostname", "localhost"),
                ]
            )
            properties(result, into: &xml)
            for scenario in scenarios {
                position += 1
                let attachmentPath = attachmentDirectory.map {
                    "\($0)/\(Self.attachmentName(scenario, position: position))"
                }
                // `id: title`, with a counter when a scenario appears again: dashboards key cases by name.
                let name = "\(scenario.id): \(scenario.title)"
                nameCounts[name, default: 0] += 1
                let count = nameCounts[name, default: 1]
                if let attachment = testcase(
                    scenario,
                    name: count == 1 ? name : "\(name) (\(count))",
                    attachmentPath: attachmentPath,
                    into: &xml
                ) {
                    attachments.append(attachment)
                }
            }
            xml.end()
        }
        xml.end()
        return RenderedReport(text: xml.text, attachments: attachments)
    }

    private func properties(_ result: ConformanceResult, into xml: inout XMLBuilder) {
        xml.start("properties")
        var values = [
            ("client.name", result.client.name),
            ("client.version", result.client.version),
            ("client.capabilities", result.client.capabilities.joined(separator: ",")),
            ("client.refresh_window", result.client.refreshWindow ?? "none"),
            ("profile", result.client.profileFile ?? "built-in"),
            ("harness.version", result.harnessVersion),
            ("seed", "\(result.seed)"),
        ]
        if let shard = result.shard { values.append(("shard", shard)) }
        if result.interrupted { values.append(("interrupted", "true")) }
        for (name, value) in values { xml.empty("property", [("name", name), ("value", value)]) }
        xml.end()
    }

    /// Writes the case; returns the attachment it links to when a text had to be cut.
    private func testcase(
        _ scenario: ScenarioRecord,
        name: String,
        attachmentPath: String?,
        into xml: inout XMLBuilder
    ) -> ReportAttachment? {
        xml.start(
            "testcase",
            [("name", name), ("classname", scenario.area), ("time", Self.seconds(milliseconds: scenario.milliseconds))]
        )
        let explanation = scenario.explanation
        let cutExplanation = ReportText.truncated(explanation, to: outputLimit)
        let timeline = scenario.timeline?.joined(separator: "\n")
        let cutTimeline = timeline.flatMap { ReportText.truncated($0, to: outputLimit) }
        let cutOutput = scenario.clientOutput.flatMap { ReportText.truncated($0, to: outputLimit) }
        let wasCut = cutExplanation != nil || cutTimeline != nil || cutOutput != nil

        switch scenario.verdict {
        case .passed, .toleratedFailure:
            // A tolerated failure passes the build, as --fail-on asked; what failed is the case's text below.
            break
        case .failed:
            let failed = scenario.failedChecks
            let message = ReportText.capped(failed.map(\.summary).joined(separator: "; "), to: messageLimit)
            xml.element(
                "failure",
                [("message", message), ("type", failed.first?.kind ?? "check")],
                content: cutExplanation ?? explanation
            )
        case .skipped:
            let reason = ReportText.capped(scenario.reason ?? "skipped", to: messageLimit)
            xml.element("skipped", [("message", reason)], content: reason)
        case .inconclusive:
            // JUnit knows no "not exercised": a skip is the status that neither passes nor fails a
            // build, and its message says it is an inconclusive verdict, not a missing capability.
            let reason = ReportText.capped(
                "inconclusive: " + (scenario.reason ?? "the client never reached what the scenario is about"),
                to: messageLimit
            )
            xml.element("skipped", [("message", reason)], content: cutExplanation ?? explanation)
        case .expectedFailure:
            let reason = ReportText.capped(
                "expected failure: " + (scenario.reason ?? "listed in the profile"),
                to: messageLimit
            )
            xml.element("skipped", [("message", reason)], content: cutExplanation ?? explanation)
        case .error:
            let problem = ReportText.capped(scenario.reason ?? "error", to: messageLimit)
            xml.element("error", [("message", problem), ("type", "harness")], content: cutExplanation ?? explanation)
        }

        var attachment: ReportAttachment?
        var systemOut = scenario.verdict == .toleratedFailure ? cutExplanation ?? explanation : cutTimeline ?? timeline
        if wasCut, let attachmentPath {
            attachment = ReportAttachment(
                path: attachmentPath,
                text: Self.fullTranscript(scenario, explanation: explanation)
            )
            systemOut = [systemOut, "The full transcript is in the attachment:", "[[ATTACHMENT|\(attachmentPath)]]"]
                .compactMap { $0 }.joined(separator: "\n")
        }
        if let systemOut { xml.element("system-out", content: systemOut) }
        if let output = scenario.clientOutput { xml.element("system-err", content: cutOutput ?? output) }
        xml.end()
        return attachment
    }

    private static func fullTranscript(_ scenario: ScenarioRecord, explanation: String) -> String {
        var sections = [
            "\(scenario.id): \(scenario.verdict.rawValue)\(scenario.reason.map { " (\($0))" } ?? "")", explanation,
        ]
        if let output = scenario.clientOutput { sections += ["client output:\n" + output] }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `003-refresh_keeps-refresh-token.txt`: numbered, so names never collide, and filesystem-safe.
    private static func attachmentName(_ scenario: ScenarioRecord, position: Int) -> String {
        let safe = String(
            scenario.id.unicodeScalars.prefix(100).map { scalar in
                CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || "-.".unicodeScalars.contains(scalar)
                    ? Character(scalar) : "_"
            }
        )
        let number = String(position)
        return String(repeating: "0", count: max(0, 3 - number.count)) + number + "-" + safe + ".txt"
    }

    /// Seconds with three decimals and a dot whatever the locale, as the schema's SUREFIRE_TIME wants.
    static func seconds(milliseconds: Int) -> String {
        let milliseconds = max(milliseconds, 0)
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
