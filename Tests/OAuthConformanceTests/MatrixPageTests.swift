import Foundation
import Testing

@testable import OAuthConformance

/// The HTML matrix as a reader of a long page needs it: what failed first, statuses told apart
/// without colour, filters by status and level, and all of it working in a real browser.
@Suite("The HTML matrix: failures first, statuses without colour, filters")
struct MatrixPageTests {
    /// Two clients, sixty scenarios both pass before anything else, then one result of every
    /// kind: a MUST failure in the last area, a SHOULD failure, a tolerated POLICY failure, an
    /// error, an inconclusive result, an expected failure and a skip.
    static func handMadeResults() -> [ConformanceResult] {
        var alpha = JSONResultTests.result([], client: "alpha")
        var beta = JSONResultTests.result([], client: "beta")
        beta.client.version = "2.0"
        for number in 1...60 {
            let id = "refresh/passes-\(number < 10 ? "0" : "")\(number)"
            alpha.scenarios.append(record(id))
            beta.scenarios.append(record(id))
        }
        alpha.scenarios += [
            record("tls/must-fail"),
            record(
                "retry/should-fail",
                .failed,
                level: "MUST",
                checks: [
                    check(
                        "number of token requests is at most 1",
                        .should,
                        observed: "3 (#2 t=+0s, #3 t=+0s, #4 t=+0s)"
                    )
                ]
            ),
            record(
                "retry/warned",
                .toleratedFailure,
                level: "POLICY",
                reason: "fails at POLICY only, below the level the run fails on (--fail-on should)",
                checks: [check("the request is retried at most 2 times", .policy, observed: "4 times")]
            ),
            record("security/broke", .error, reason: "the adapter exited with status 3"),
            record(
                "refresh/known",
                .expectedFailure,
                reason: "the library never refreshes on its own (upstream issue 12)",
                checks: [check("a refresh happens before expiry", .must, observed: "none")]
            ),
        ]
        beta.scenarios += [
            record(
                "tls/must-fail",
                .failed,
                checks: [
                    check(
                        "the server certificate is verified",
                        .must,
                        observed: "a self-signed certificate was accepted"
                    ),
                    check("no request reaches an unverified server", .must, observed: "1 (#2)"),
                ]
            ),
            record("retry/should-fail", level: "MUST"),
            record("retry/warned", level: "POLICY"),
            record(
                "retry/never-reached",
                .inconclusive,
                reason: "the client never sent the request the 401 answers",
                // A precondition judged below the scenario's level: the entry stays at the scenario's.
                checks: [check("precondition: a resource request is answered 401", .should, observed: "none")]
            ),
            record("refresh/skipped-one", .skipped, reason: "the client does not declare refresh_on_401"),
        ]
        return [alpha, beta]
    }

    static func record(
        _ id: String,
        _ verdict: VerdictRecord = .passed,
        level: String = "MUST",
        reason: String? = nil,
        checks: [CheckRecord] = []
    ) -> ScenarioRecord {
        var record = JSONResultTests.record(id, verdict, area: String(id.prefix { $0 != "/" }))
        record.level = level
        record.reason = reason
        record.checks = checks
        // What ran has a timeline; a skip and an error here stopped before the first step.
        if verdict != .skipped && verdict != .error {
            record.timeline = ["t=+0s  step 1: login password → success (200)"]
        }
        return record
    }

    static func check(_ statement: String, _ level: Level, observed: String) -> CheckRecord {
        CheckRecord(
            kind: "count",
            statement: statement,
            passed: false,
            level: level,
            expected: "as stated",
            observed: observed
        )
    }

    /// The text between the first `start` and the first `end` after it, both included.
    static func section<Text: StringProtocol>(
        _ page: Text,
        from start: String,
        to end: String
    ) throws -> Text.SubSequence {
        let from = try #require(page.range(of: start), "no \(start)")
        let to = try #require(
            page.range(of: end, range: from.upperBound..<page.endIndex),
            "no \(end) after \(start)"
        )
        return page[from.lowerBound..<to.upperBound]
    }

    /// The matrix table of a page, without the list of failures above it, whose entries open
    /// the same details as the matrix's cells.
    static func matrix(_ page: String) throws -> Substring {
        try section(page, from: "<table class=\"matrix\"", to: "</table>")
    }

    /// The values of `attribute` in `text`, in order.
    static func values(of attribute: String, in text: some StringProtocol) -> [String] {
        text.components(separatedBy: " \(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test("What failed comes before the matrix, strictest level first, each entry opening its cell's detail")
    func failuresFirst() throws {
        let page = MatrixPage().render(Self.handMadeResults())
        let failures = try #require(page.range(of: "<section id=\"failures\""))
        let matrix = try #require(page.range(of: "<table class=\"matrix\""))
        #expect(failures.lowerBound < matrix.lowerBound)
        #expect(page.contains("<h2 id=\"failures-heading\">What failed</h2>"))

        let list = try Self.section(page, from: "<section id=\"failures\"", to: "</table>")
        let entries = list.components(separatedBy: "<tr data-status=").dropFirst()
        #expect(
            entries.map { String($0.prefix { $0 != " " }) } == [
                "\"failed\"", "\"failed\"", "\"tolerated_failure\"", "\"error\"", "\"inconclusive\"",
            ],
            "MUST, SHOULD, POLICY, then errors, then inconclusive results"
        )
        #expect(
            list.components(separatedBy: "<td class=\"level\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
                == ["MUST", "SHOULD", "POLICY", "MUST", "MUST"],
            "a failure at the level it fails at; an error and an inconclusive result at their scenario's"
        )
        let first = try #require(entries.first)
        #expect(first.contains("data-level=\"MUST\""))
        #expect(first.contains("<code>tls/must-fail</code>"))
        #expect(first.contains("<td class=\"client\">beta 2.0</td>"))
        #expect(first.contains("<div class=\"check\">the server certificate is verified [MUST]</div>"))
        #expect(first.contains("observed: a self-signed certificate was accepted"))
        #expect(first.contains("(and 1 more failed check)"))
        let second = Array(entries)[1]
        #expect(second.contains("number of token requests is at most 1 [SHOULD]"))
        #expect(second.contains("observed: 3 (#2 t=+0s, #3 t=+0s, #4 t=+0s)"))
        #expect(entries.joined().contains("error: the adapter exited with status 3"))
        #expect(entries.joined().contains("inconclusive: the client never sent the request the 401 answers"))
        #expect(!list.contains("refresh/skipped-one") && !list.contains("refresh/known"))

        // Each entry opens the same detail as its cell in the matrix, and that detail is its scenario's.
        let matrixCells = try Self.matrix(page)
        for entry in entries {
            let detail = try #require(Self.values(of: "data-detail", in: entry).first)
            let scenario = try #require(entry.components(separatedBy: "<code>").dropFirst().first?.prefix { $0 != "<" })
            #expect(matrixCells.contains("data-detail=\"\(detail)\""))
            let template = try Self.section(page, from: "<template id=\"\(detail)\">", to: "</h2>")
            #expect(template.hasSuffix(" \(scenario)</h2>"), "\(detail) is the detail of \(scenario)")
            let anchor = try #require(Self.values(of: "href", in: entry).first?.dropFirst())
            let row = try Self.section(matrixCells, from: "<tr id=\"\(anchor)\"", to: "</code>")
            #expect(row.hasSuffix("<code>\(scenario)</code>"), "the entry links to its scenario's row")
        }

        let expected = try Self.section(page, from: "<details class=\"expected\">", to: "</details>")
        #expect(expected.contains("<summary>1 expected failure (XFAIL)"), "folded: no open attribute")
        #expect(expected.contains("<code>refresh/known</code>"))
        #expect(
            expected.contains("expected by the profile: the library never refreshes on its own (upstream issue 12)")
        )
    }

    @Test("nothing failed: one line says so; expected failures still follow, folded")
    func nothingFailed() throws {
        var result = JSONResultTests.result(["refresh/one", "refresh/two"])
        let clean = MatrixPage().render([result])
        #expect(
            clean.contains(
                "<p class=\"nothing-failed\">Nothing failed: no scenario failed, stopped with an error or was inconclusive.</p>"
            )
        )
        #expect(!clean.contains("<table class=\"failures\">") && !clean.contains("<details class=\"expected\">"))

        result.scenarios[1] = Self.record("refresh/two", .expectedFailure, reason: "known")
        let known = MatrixPage().render([result])
        #expect(known.contains("beyond the failures the clients' profiles expect (below).</p>"))
        #expect(known.contains("<details class=\"expected\"><summary>1 expected failure (XFAIL)"))
    }

    @Test("every status differs from every other in its symbol, its words and its border, not only in colour")
    func statusesWithoutColour() throws {
        var result = JSONResultTests.result([])
        result.scenarios = VerdictRecord.allCases.map { Self.record("refresh/\($0.rawValue)", $0) }
        let page = MatrixPage().render([result])
        let matrix = try Self.matrix(page)
        var shown: [VerdictRecord: String] = [:]
        for verdict in VerdictRecord.allCases {
            let cell = try Self.section(matrix, from: "data-status=\"\(verdict.rawValue)\"", to: "</button>")
            let text = String(cell.drop { $0 != ">" }.dropFirst()).replacing(/<[^>]*>/, with: "")
            #expect(text == "\(verdict.symbol) \(verdict.label)", "the label is kept, with its symbol beside it")
            let label = try #require(Self.values(of: "aria-label", in: cell).first)
            #expect(label.hasSuffix(": \(verdict.words)"), "a screen reader hears the status in words: \(label)")
            shown[verdict] = text
        }
        #expect(Set(VerdictRecord.allCases.map(\.symbol)).count == VerdictRecord.allCases.count)
        #expect(Set(VerdictRecord.allCases.map(\.words)).count == VerdictRecord.allCases.count)
        #expect(shown[.expectedFailure] == "⊘ XFAIL" && shown[.skipped] == "↷ SKIP")

        // The style sheet gives each status a shape of its own; colours are left out of the comparison.
        let style = try Self.section(page, from: "<style>", to: "</style>")
        var shapes: [VerdictRecord: Set<String>] = [:]
        for verdict in VerdictRecord.allCases {
            let rules = style.components(separatedBy: ".cell.\(verdict.rawValue) {").dropFirst()
            shapes[verdict] = Set(
                rules.flatMap { $0.prefix { $0 != "}" }.split(separator: ";") }
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter {
                        !$0.isEmpty && !["background", "color", "border-color"].contains($0.prefix { $0 != ":" })
                    }
            )
            #expect(shapes[verdict]?.contains { $0.hasPrefix("border-style") } == true, "\(verdict) has a border style")
        }
        for first in VerdictRecord.allCases {
            for second in VerdictRecord.allCases where first.rawValue < second.rawValue {
                #expect(shapes[first] != shapes[second], "\(first) and \(second) differ only in colour")
            }
        }
    }

    @Test("a filter for each status and each level the page has, none for one it has not, and the counts shown")
    func filters() throws {
        var result = JSONResultTests.result([])
        result.scenarios = [
            Self.record("refresh/one"),
            Self.record(
                "refresh/two",
                .failed,
                level: "SHOULD",
                checks: [Self.check("twice", .should, observed: "once")]
            ),
            Self.record("retry/three", .skipped, level: "SHOULD"),
        ]
        let page = MatrixPage().render([result])
        let filters = try Self.section(page, from: "<form id=\"filters\"", to: "</form>")
        #expect(Self.values(of: "value", in: filters) == ["passed", "failed", "skipped", "MUST", "SHOULD"])
        for status in ["passed", "failed", "skipped"] {
            #expect(filters.contains("<input type=\"checkbox\" name=\"status\" value=\"\(status)\" checked>"))
        }
        #expect(
            filters.contains(
                "<span class=\"cell failed\"><span class=\"symbol\" aria-hidden=\"true\">✗</span> FAIL</span> 1</label>"
            )
        )
        #expect(filters.contains("<input type=\"checkbox\" name=\"level\" value=\"SHOULD\" checked> SHOULD 2</label>"))
        #expect(
            filters.contains(
                "Showing 3 of 3 scenarios, 1 of 1 entries of What failed, 0 of 0 expected failures</output>"
            )
        )
        #expect(
            page.range(of: "<form id=\"filters\"")!.lowerBound < page.range(of: "<section id=\"failures\"")!.lowerBound,
            "the filters stand above both lists they act on"
        )
        #expect(page.contains("<tr id=\"row-2\" data-level=\"SHOULD\">"))
        #expect(page.contains("<tr data-status=\"failed\" data-level=\"SHOULD\">"))
        #expect(page.contains("<th>Inconclusive</th>"), "the summary names every count it shows")
    }

    @Test("a client's text in What failed is escaped, bidi controls neutralized, and cut short")
    func hostileText() throws {
        var result = JSONResultTests.result([])
        let flood = String(repeating: "line\n\u{202E}", count: 2000)
        result.scenarios = [
            Self.record(
                "security/hostile",
                .failed,
                checks: [Self.check("<script>alert(1)</script> holds", .must, observed: flood)]
            )
        ]
        let page = MatrixPage().render([result])
        let list = try Self.section(page, from: "<section id=\"failures\"", to: "</section>")
        #expect(list.contains("&lt;script&gt;alert(1)&lt;/script&gt; holds [MUST]"))
        #expect(!list.contains("<script>"))
        #expect(!BidiControlTests.holdsAControl(String(list)))
        let observed = try Self.section(list, from: "<div class=\"observed\">", to: "</div>")
        #expect(observed.count < 400, "an entry quotes a short excerpt: \(observed.count) characters")
        #expect(observed.contains("line \\u{202E}line") && observed.contains("…"))
    }

    @Test(
        "in Chromium: the first failure on the first screen opens its detail, filters show what they say, screenshots",
        .enabled(if: ProcessRun.which("chromium") != nil, "needs Debian's chromium (scripts/test installs it)"),
        // A browser rendering a page takes both cores for most of a minute, starving the tests that
        // run beside it of the real time their clients are allowed: scripts/test runs this one alone,
        // after the others, with the variable set.
        .enabled(
            if: ProcessInfo.processInfo.environment["OAUTH_CONFORMANCE_BROWSER_TESTS"] == "1",
            "runs alone: OAUTH_CONFORMANCE_BROWSER_TESTS=1 (scripts/test sets it after the parallel tests)"
        ),
        .timeLimit(.minutes(3))
    )
    func inChromium() async throws {
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let page = scratch.appendingPathComponent("matrix.html")
        try MatrixPage().render(Self.handMadeResults()).write(to: page, atomically: true, encoding: .utf8)
        let screenshot = scratch.appendingPathComponent("matrix.png")
        let run = try await ProcessRun.run(
            PackageFiles.root.appendingPathComponent("scripts/check-matrix"),
            [page.path, screenshot.path]
        )
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.contains(": 130 cells, 130 open their scenario"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("first failure: tls/must-fail (failed); its entry is at "))
        #expect(run.standardOutput.contains("what failed: 6 entries, 6 open their scenario"))
        #expect(run.standardOutput.contains("only failed ticked: 2 of 67 rows, 2 entries"))
        for shot in [screenshot, scratch.appendingPathComponent("matrix-first-screen.png")] {
            let bytes = try Data(contentsOf: shot)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(shot.lastPathComponent) is a PNG")
        }
    }
}
