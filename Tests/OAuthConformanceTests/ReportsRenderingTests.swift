import Foundation
import Testing

@testable import OAuthConformance

@Suite("Console, Markdown and HTML reports")
struct ReportsRenderingTests {
    @Test(
        "colour only on a terminal, and never with NO_COLOR set or a dumb terminal",
        arguments: [
            ([String: String](), true, true), ([:], false, false), (["NO_COLOR": "1"], true, false),
            (["NO_COLOR": ""], true, true), (["TERM": "dumb"], true, false),
        ]
    )
    func colourChoice(_ environment: [String: String], _ isTerminal: Bool, _ colour: Bool) {
        #expect(ConsoleReport.wantsColour(environment: environment, isTerminal: isTerminal) == colour)
    }

    @Test("sanitising drops terminal escapes (CSI, OSC, two-character) and characters XML forbids, keeping the text")
    func sanitising() {
        let text =
            "a\u{1B}[1;31mb\u{1B}[0m c\u{1B}]0;window title\u{7}d \u{1B}]8;;file:///x\u{1B}\\e\u{1B}7f \u{0}\u{8}\u{B}\u{FFFF}g\tok\n"
        #expect(ReportText.sanitized(text) == "ab cd ef g\tok\n")
        #expect(ReportText.truncated("short", to: 10) == nil)
        #expect(ReportText.capped("0123456789abc", to: 10) == "0123456789\n… 3 more characters not shown")
    }

    @Test("console lines: coloured labels on request, a client's escapes never, progress on long runs")
    func consoleLines() async throws {
        let run = try await JUnitReportTests.mixedRun()
        let failed = try #require(run.results.first { $0.verdict == .failed })
        #expect(
            ConsoleReport().line(for: failed).hasPrefix("FAIL   retry/401-on-valid-token-refreshes-once-and-replays  (")
        )
        #expect(ConsoleReport(colour: true).line(for: failed).hasPrefix("\u{1B}[31mFAIL\u{1B}[0m   retry/"))
        #expect(ConsoleReport().line(for: failed, progress: (3, 20)).hasPrefix("FAIL"), "short runs show no counter")
        #expect(ConsoleReport().line(for: failed, progress: (3, 120)).hasPrefix("[  3/120] FAIL   retry/"))

        var hostile = failed
        hostile.verdict = .error("client said \u{1B}[2J\u{1B}[31mboom\u{0} " + String(repeating: "x", count: 5000))
        let line = ConsoleReport(colour: true, lineLimit: 100).line(for: hostile)
        #expect(line.hasPrefix("\u{1B}[35mERROR\u{1B}[0m  retry/"))
        #expect(!line.dropFirst(12).contains("\u{1B}"), "only the harness's own colour escapes remain")
        #expect(line.contains("client said boom"))
        #expect(line.contains("more characters not shown"))
    }

    @Test("the final table counts verdicts by area, then for the whole run")
    func consoleTable() async throws {
        let table = ConsoleReport().table(for: ConformanceResult(try await JUnitReportTests.mixedRun()))
        #expect(
            table == [
                "area     passed  failed  skipped  errors",
                "refresh       2       0        0       1",
                "retry         1       1        1       0",
                "all           3       1        1       1",
            ]
        )
    }

    @Test("the Markdown summary has the totals, a table by area and each failure folded with its timeline")
    func markdown() async throws {
        var result = ConformanceResult(try await JUnitReportTests.mixedRun())
        result.scenarios[0].title = "title with | pipe and ``` fence"
        result.scenarios[0].verdict = .failed
        let markdown = MarkdownReport().render([result])
        #expect(markdown.contains("## OAuth conformance: reference 0.1.0"))
        #expect(
            markdown.contains(
                "❌ 6 scenarios: 2 passed, 2 failed, 1 skipped, 1 errors in 1.234 s (harness \(Harness.version), seed 0)"
            )
        )
        #expect(
            markdown.contains(
                "| Area | Passed | Failed | Skipped | Errors |\n|---|---:|---:|---:|---:|\n| refresh | 1 | 1 | 0 | 1 |\n| retry | 1 | 1 | 1 | 0 |"
            )
        )
        #expect(
            markdown.contains(
                "<summary>❌ FAIL (SHOULD) <code>retry/401-on-valid-token-refreshes-once-and-replays</code>"
            )
        )
        #expect(markdown.contains("title with &#124; pipe"))
        #expect(
            markdown.contains("\n````text\ntitle with | pipe and ``` fence\n"),
            "a fence longer than any backtick run in the text"
        )
        #expect(markdown.contains(">   t=+0s  #4 GET /resource Bearer at-1 → 200"))
        #expect(
            markdown.contains(
                "- <code>retry/401-on-valid-token-refreshes-once-and-replays</code>: the client does not declare refresh_on_401"
            )
        )
    }

    @Test("the matrix page: a column per client, a cell per scenario opening its timeline, nothing fetched")
    func matrixPage() async throws {
        let reference = ConformanceResult(try await JUnitReportTests.mixedRun())
        var other = JSONResultTests.result(
            ["refresh/keeps-refresh-token-when-response-omits-it", "tls/only-here"],
            client: "other <lib>"
        )
        other.scenarios[1].area = "tls"
        other.scenarios[1].verdict = .failed
        let page = MatrixPage().render([reference, other])
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(
            page.contains("<th class=\"client\">reference 0.1.0</th><th class=\"client\">other &lt;lib&gt; 1.0</th>")
        )
        #expect(page.contains("<tr class=\"area\"><th colspan=\"4\">tls</th></tr>"))
        #expect(page.contains("title=\"not run for this client\""), "a scenario one client did not run")
        // The matrix's own cells: the list of failures above it opens the same details.
        let cells = try MatrixPageTests.matrix(page).components(separatedBy: "<button class=\"cell ").count - 1
        let templates = page.components(separatedBy: "<template id=\"detail-").count - 1
        // Rows: the reference client's three scenarios and tls/only-here; each client ran some of them.
        #expect(cells == 3 + 2)
        #expect(templates == cells)
        #expect(
            page.contains("t=+0s  #4 GET /resource Bearer at-2 → 200"),
            "a cell's timeline, escaped into its template"
        )
        for outside in ["http://", "https://", "<link", " src="] {
            #expect(!page.contains(outside), "the page must be self-contained: found \(outside)")
        }
    }
}
