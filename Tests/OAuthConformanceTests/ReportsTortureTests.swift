import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// A client whose every word is hostile to report formats: terminal escapes, control
/// characters XML forbids, `]]>`, markup, invalid UTF-8 (decoded as the harness decodes bytes,
/// to U+FFFD), and megabytes of it.
struct HostileClientFactory: ClientFactory {
    static let invalidUTF8 = String(
        decoding: [0x62, 0x61, 0x64, 0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80] as [UInt8],
        as: UTF8.self
    )
    static let hostile =
        "\u{1B}[31mred\u{1B}[0m \u{1B}]0;window title\u{7}NUL\u{0} BS\u{8} VT\u{B} FF\u{C} U+FFFE\u{FFFE} ]]> <tag a=\"1\"> & \(invalidUTF8) `|` end"
    /// About 2.5 MB.
    static let flood = String(repeating: hostile + "\n", count: 2_500_000 / hostile.utf8.count)

    var profile = ClientProfile(
        name: "hostile",
        version: "\u{1B}[1m6.6.6\u{0}",
        capabilities: Set(Capability.allCases),
        refreshWindow: .seconds(60)
    )

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest { HostileClient() }

    struct HostileClient: LoginAndRequestClient {
        func login(_ grant: GrantType) async -> ClientOutcome {
            .failure(ClientFailure(.transient, message: HostileClientFactory.flood))
        }
        func request(method: String, url: String) async -> ClientOutcome {
            .success(status: 200, body: HostileClientFactory.hostile)
        }
        func shutdown() async {}
    }
}

@Suite("Reports survive whatever a client prints")
struct ReportsTortureTests {
    static func hostileResult() async throws -> ConformanceResult {
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: security/hostile-output
            title: A client that prints control characters, ]]>, invalid UTF-8 and megabytes
            area: security
            level: MUST
            steps:
              - login: password
              - request: GET /resource
            expect:
              - every_step: succeeds
            """
        )
        var result = await ScenarioRunner().run(scenario, with: HostileClientFactory())
        // What an out-of-process adapter's stderr would bring: the runner has no such client yet.
        result.transcript?.clientOutput = HostileClientFactory.flood
        let run = SuiteRun(
            profile: HostileClientFactory().profile,
            results: [result],
            startedAt: Date(),
            wallTime: result.wallTime
        )
        return ConformanceResult(run)
    }

    @Test("the hostile text reaches the report, which validates, stays small and links the full transcript")
    func junitReportSurvives() async throws {
        let result = try await Self.hostileResult()
        let scenario = try #require(result.scenarios.first)
        #expect(scenario.verdict == .failed)
        #expect(
            scenario.timeline?.contains { $0.contains("]]> <tag") } == true,
            "the client's message must reach the timeline"
        )

        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("junit.xml")
        let junit = JUnitReport()
        let rendered = junit.render(
            result,
            attachmentDirectory: JUnitReport.attachmentDirectory(forReportAt: report.path)
        )
        try ReportFile.write(rendered, to: report.path)

        let validation = try await JUnitReportTests.validate(file: report)
        #expect(validation.status == 0, "\(validation.standardError.prefix(2000))")

        let bytes = try Data(contentsOf: report)
        let xml = try #require(String(validating: bytes, as: UTF8.self), "the report must be valid UTF-8")
        #expect(bytes.count < 512 * 1024, "the report holds capped texts, not megabytes: \(bytes.count) bytes")
        for forbidden: UInt8 in [0x00, 0x07, 0x08, 0x0B, 0x0C, 0x1B] {
            #expect(!bytes.contains(forbidden), "byte \(forbidden) must not reach the XML")
        }
        #expect(!xml.contains("]]>"))
        #expect(xml.contains("]]&gt; &lt;tag a=\"1\"&gt; &amp; bad\u{FFFD}"))
        #expect(xml.contains(#"<property name="client.version" value="6.6.6"/>"#))

        let attachment = try #require(rendered.attachments.first)
        #expect(rendered.attachments.count == 1)
        let attached = try String(contentsOfFile: attachment.path, encoding: .utf8)
        #expect(attached.contains(HostileClientFactory.flood), "the attachment keeps the whole transcript, as printed")

        let suites = try await ReportConsumers.junitparser(report)
        let testcase = try #require(suites.first?.cases.first)
        #expect(testcase.result == "Failure")
        let systemOut = try #require(testcase.systemOut)
        #expect(systemOut.unicodeScalars.count < junit.outputLimit + 500)
        #expect(
            systemOut.split(separator: "\n").contains("[[ATTACHMENT|\(attachment.path)]]"),
            "the marker must stand on a line of its own"
        )
        #expect(systemOut.contains("more characters not shown"))
        #expect((testcase.systemErr?.unicodeScalars.count ?? 0) < junit.outputLimit + 500)
        #expect((testcase.message?.count ?? 0) < junit.messageLimit + 100)

        let page = try await ReportConsumers.junit2html(report)
        #expect(page.contains("security/hostile-output"))
    }

    @Test("the JSON result keeps the hostile text exactly; the Markdown and HTML pages drop what would break them")
    func otherReportsSurvive() async throws {
        let result = try await Self.hostileResult()
        let json = JSONReport.render(result)
        #expect(try JSONReport.read(Data(json.utf8), from: "result.json") == result)

        for (name, page) in [("Markdown", MarkdownReport().render([result])), ("HTML", MatrixPage().render([result]))] {
            #expect(
                !page.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{0}" || $0 == "\u{8}" },
                "\(name) must not carry control characters"
            )
            #expect(page.utf8.count < 512 * 1024, "\(name) must cap a scenario's text: \(page.utf8.count) bytes")
            #expect(page.contains("\u{FFFD}"), "\(name) shows invalid bytes as U+FFFD")
        }
    }
}
