/// The clients table's section on one library: its profile and totals, what it does wrong (the
/// reasons its profile's `expected_failures` give, or the checks it failed), what it does not
/// support, and the timeline of one failing scenario as evidence.
struct LibrarySection {
    var result: ConformanceResult
    /// As `ClientsTable.repositoryRoot`.
    var repositoryRoot: String?
    var evidenceLimit: Int

    var lines: [String] {
        let client = result.client
        let findings = LibraryFindings(result)
        var lines = ["# \(MarkdownText.inline(client.label))", "", about(client), ""]
        if findings.findings.isEmpty {
            lines += ["Passes every scenario it runs.", ""]
        } else {
            lines += findings.findings.map { finding in
                "- **\(MarkdownText.inline(finding.family.title))**: \(MarkdownText.inline(finding.text))"
                    + confirmation(of: finding)
                    + " — " + finding.scenarioIDs.map { "`\($0)`" }.joined(separator: ", ")
            }
            lines.append("")
        }
        if let parts = client.applicationPart, !parts.isEmpty {
            lines += ["Left to the application (the adapter does what the library's documentation shows):", ""]
            lines += parts.map { part in
                "- **\(MarkdownText.inline(BehaviourFamily.named(part.family)?.title ?? part.family))**: "
                    + MarkdownText.inline(part.reason)
            }
            lines.append("")
        }
        if !findings.unsupported.isEmpty {
            let reasons = findings.unsupported.map { "\(MarkdownText.inline($0.reason)) (\($0.count))" }
            lines += ["Not supported, so skipped: " + reasons.joined(separator: "; ") + ".", ""]
        }
        if let evidence = findings.evidence {
            let text = StableText.masked(ReportText.visible(evidence.explanation, keepingLineBreaks: true))
            lines += [
                "Evidence, `\(evidence.id)` (\(evidence.verdict.label)); `>` marks the requests behind the failure:",
                "",
            ]
            lines += MarkdownText.codeBlock(ReportText.capped(text, to: evidenceLimit)) + [""]
        }
        return lines
    }

    /// How far the finding is confirmed: by a probe run without the harness, or only by the run.
    private func confirmation(of finding: LibraryFindings.Finding) -> String {
        guard finding.known else { return " (not in its profile's expected failures)" }
        guard let probe = finding.probe else { return " (expected by its profile; its reason awaits a probe)" }
        return
            " (confirmed without the harness by <code>\(MarkdownText.html(probe))</code>, run from the profile's folder)"
    }

    /// `Profile Adapters/python/authlib.yaml · capabilities … · refresh window 1m · 103 scenarios: …`.
    private func about(_ client: ClientRecord) -> String {
        let profile =
            if let file = client.profileFile {
                repositoryRoot.map { "Profile [`\(file)`](\($0)\(file))" } ?? "Profile `\(file)`"
            } else {
                "Built into the harness, run in process"
            }
        let failures = result.scenarios.filter(\.verdict.isFailure)
        let expected = failures.count { $0.verdict == .expectedFailure }
        var counts = ["\(result.count(.passed)) passed", "\(failures.count) failed"]
        if expected > 0 { counts[1] += " (\(expected) of them expected by its profile)" }
        counts.append("\(result.count(.skipped)) skipped")
        if result.count(.error) > 0 { counts.append("\(result.count(.error)) could not be judged") }
        return [
            profile,
            "capabilities: "
                + (client.capabilities.isEmpty
                    ? "none" : client.capabilities.map { "`\($0)`" }.joined(separator: ", ")),
            "refresh window: " + (client.refreshWindow ?? "none"),
            "\(result.scenarios.count) scenarios: " + counts.joined(separator: ", "),
        ].joined(separator: " · ") + "."
    }
}
