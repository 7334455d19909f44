import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// Every number the harness reads from an adapter's answers or from a result file, at the
/// extremes. A trap would end `conformance run` with no report written; instead each value is
/// read as what it says or refused with a diagnostic that names the field. (The provider's fields
/// are fuzzed in MockProviderTests' ExtremeNumberTests.)
@Suite("Extreme numbers from an adapter or a result file: read or refused, never a crash")
struct ExtremeNumberFuzzTests {
    /// JSON texts at the extremes of a number, and texts that only look like one.
    static let extremes = [
        "1e300", "-1e300", "9223372036854775808", "-9223372036854775809", "9223372036854775807",
        "-9223372036854775808", "1.5", "-0.5", "1e-300", "0", #""NaN""#, #""Infinity""#, #""1e300""#, "null",
    ]

    /// An adapter's answer with `value` in `field`, read by every reader that looks at that field.
    /// Returns the fault a reader reported, or `nil` when every reader took the answer.
    static func adapterFault(field: String, value: String) -> String? {
        let request = AdapterRequest(id: 7, op: .devicePoll, now: VirtualClock.defaultOrigin)
        let line: String =
            switch field {
            case "id": #"{"id": \#(value), "ok": true}"#
            case "expires_at": #"{"id": 7, "ok": true, "tokens": {"access_token": "at-1", "expires_at": \#(value)}}"#
            default: #"{"id": 7, "ok": true, "\#(field)": \#(value), "name": "x", "version": "1", "capabilities": []}"#
            }
        let reply: AdapterReply
        switch AdapterReply.parse(line, answering: request) {
        case .success(let parsed): reply = parsed
        case .failure(let fault): return fault.message
        }
        switch field {
        case "status":
            if case .failure(let fault) = reply.outcome(of: "request") { return fault.message }
        case "protocol":
            if case .failure(let fault) = AdapterIdentity.parse(reply) { return fault.message }
        case "wait":
            if case .failure(let fault)? = reply.devicePollWait(of: "device_poll") { return fault.message }
        case "expires_at":
            if case .failure(let fault) = reply.storedTokens() { return fault.message }
        default: break
        }
        return nil
    }

    @Test(
        "each numeric field of an adapter's answers",
        arguments: ["id", "status", "protocol", "wait", "expires_at"],
        extremes
    )
    func adapterAnswers(field: String, value: String) {
        let fault = Self.adapterFault(field: field, value: value)
        let accepted: Set<String> =
            switch field {
            case "wait": ["1.5", "1e-300", "0"]
            case "expires_at": ["1.5", "1e-300", "0", "null"]
            default: []
            }
        if accepted.contains(value) {
            #expect(fault == nil, "\(field) \(value)")
        } else {
            let named = field == "expires_at" ? "expires_at" : field == "id" ? "id" : field
            #expect(fault?.contains(named) == true, "\(field) \(value): \(fault ?? "accepted")")
        }
    }

    @Test(
        "a scripted device authorization interval at the extremes: the run ends in a verdict with its timeline, the virtual clock stopped at the end of 9999",
        arguments: ["9223372036854775807", "4611686018427387904", "1000000000000000"]
    )
    func scriptedPollingInterval(interval: String) async throws {
        let response =
            #"{"device_code": "dc", "user_code": "UC", "verification_uri": "https://example.com/device", "expires_in": 600, "interval": \#(interval)}"#
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: device/extreme-interval
            title: The provider asks for an interval no client can wait
            area: device
            level: MUST
            provider:
              rules:
                - when: { endpoint: device_authorization }
                  respond: { status: 200, headers: { Content-Type: application/json }, body: '\(response)' }
                - when: { endpoint: token }
                  error: { code: authorization_pending }
            steps:
              - device_sign_in:
            expect:
              - polling: paced
            """
        )
        // A client that polls on past the code's expiry waits the whole interval and polls again.
        let result = await ScenarioRunner().run(scenario, with: try Fixtures.defect("polls-after-denial").factory)
        let run = SuiteRun(
            profile: ReferenceClientFactory().profile,
            results: [result],
            startedAt: Date(),
            wallTime: .zero
        )
        let record = ConformanceResult(run)
        let end = TimelineText.instant(
            .seconds(Double(NumericDate.latest) - VirtualClock.defaultOrigin.timeIntervalSince1970)
        )
        let timeline = record.scenarios[0].timeline ?? []
        #expect(timeline.contains { $0.contains("t=\(end)") }, "\(timeline)")
        _ = JUnitReport().render(run)
        _ = MarkdownReport().render([record])
        _ = JSONReport.render(record)
    }

    @Test(
        "each numeric field of a result file",
        arguments: [
            ("format", #""format" : 1"#), ("seed", "454545"), ("milliseconds", "424242"),
            ("scenarios[0].milliseconds", "434343"), ("evidence", "464646"),
        ],
        extremes
    )
    func resultFiles(field: (name: String, marker: String), value: String) throws {
        let marker = field.marker
        let replacement = field.name == "format" ? #""format" : \#(value)"# : value
        let text = JSONResultTests.resultFileWithMarkers().replacingOccurrences(of: marker, with: replacement)
        let read: ConformanceResult
        do {
            read = try JSONReport.read(Data(text.utf8), from: "result.json")
        } catch {
            #expect(!"\(error)".isEmpty)
            return
        }
        // Read: every report of it renders, alone and merged with a shard of itself.
        var shard = read
        shard.scenarios = [JSONResultTests.record("refresh/three")]
        let merged = try ResultMerge.merge([("a.json", read), ("b.json", shard)])
        _ = JUnitReport().render(read)
        _ = JUnitReport().render(merged[0])
        _ = MarkdownReport().render(merged)
        _ = MatrixPage().render(merged)
        _ = JSONReport.render(merged[0])
    }
}
