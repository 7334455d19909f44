import Foundation
import Testing

@testable import OAuthConformance

/// Bidirectional formatting characters ("Trojan Source", CVE-2021-42574) reorder what a reader
/// sees: `U+202E` makes `exe.txt` read as `txt.exe`. Wherever the reports neutralize C0 and C1
/// controls, they neutralize these too, and a scenario file may not hold them.
@Suite("Bidirectional controls never reach a report or a scenario as they are")
struct BidiControlTests {
    /// ALM, LRM, RLM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI.
    static let controls: [Unicode.Scalar] = [
        "\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
        "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    ]
    static let hostile = "invoice\u{202E}fdp.exe " + String(String.UnicodeScalarView(controls))

    static func holdsAControl(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: controls.contains)
    }

    @Test("console and Markdown text shows each as a visible escape; XML and HTML text too")
    func reportText() {
        #expect(ReportText.visible("invoice\u{202E}fdp.exe") == #"invoice\u{202E}fdp.exe"#)
        #expect(!Self.holdsAControl(ReportText.visible(Self.hostile)))
        #expect(!Self.holdsAControl(ReportText.visible(Self.hostile, keepingLineBreaks: true)))
        #expect(!Self.holdsAControl(ReportText.sanitized(Self.hostile)))
        #expect(!Self.holdsAControl(XMLText.escaped(Self.hostile)))
    }

    @Test("a title and a client's message with them: JUnit, Markdown and HTML show none of them")
    func reports() {
        var record = JSONResultTests.record("security/bidi", .error)
        record.title = Self.hostile
        record.reason = "the client said: " + Self.hostile
        var result = JSONResultTests.result([])
        result.scenarios = [record]
        #expect(!Self.holdsAControl(JUnitReport().render(result).text))
        #expect(!Self.holdsAControl(MarkdownReport().render([result])))
        #expect(!Self.holdsAControl(MatrixPage().render([result])))
    }

    @Test("a scenario title holding one is refused, naming the character")
    func scenarioTitle() {
        #expect(throws: (any Error).self) {
            try Fixtures.scenario(
                """
                conformance: 1
                id: security/bidi
                title: "pays \u{202E}001 ot 0001"
                area: security
                level: MUST
                steps:
                  - login: password
                expect:
                  - every_step: succeeds
                """
            )
        }
    }
}
