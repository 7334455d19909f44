import Logging
import MockProvider
import Synchronization
import Testing

/// The line the provider logs for each request, which `conformance serve` prints.
@Suite("The request log")
struct RequestLogTests {
    @Test("each request is logged as method, target, status, then how it was delivered and the rule that changed it")
    func requestLines() {
        let log = CapturedLog()
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .token, calls: .nth(1)),
                action: .respond(ProviderResponse(status: 503, body: "busy")),
                delivery: .delayed(latency: .seconds(2), jitter: .zero)
            )
        ])
        let provider = MockProvider(settings: settings, logger: Logger(label: "mock-provider") { _ in log })
        _ = provider.handle(ProviderRequest(method: "POST", target: "/token"))
        _ = provider.handle(ProviderRequest(method: "GET", target: "/resource?page=2"))
        #expect(
            log.lines == [
                "info [MockProvider] POST /token → 503 (delayed 2.0 seconds) [rule 1]",
                "info [MockProvider] GET /resource?page=2 → 401",
            ]
        )
    }
}

/// A log handler that keeps each event as `level [source] message`.
private final class CapturedLog: LogHandler, Sendable {
    private let captured = Mutex<[String]>([])
    var lines: [String] { captured.withLock { $0 } }

    func log(event: LogEvent) {
        captured.withLock { $0.append("\(event.level) [\(event.source)] \(event.message)") }
    }

    var logLevel: Logger.Level {
        get { .info }
        set {}
    }
    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    subscript(metadataKey _: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }
}
