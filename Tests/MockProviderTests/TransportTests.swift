import Foundation
import MockProvider
import Testing

@Suite("Transport faults, observed on the wire")
struct TransportTests {
    static func settings(_ delivery: Delivery, body: String = "") -> ProviderSettings {
        ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .resource),
                action: body.isEmpty ? nil : .respond(ProviderResponse(status: 200, body: body)),
                delivery: delivery
            )
        ])
    }

    func rawRequest(_ provider: RunningProvider) throws -> RawConnection {
        let connection = try RawConnection(port: try #require(provider.server.port))
        connection.send("GET /resource HTTP/1.1\r\nHost: localhost\r\n\r\n")
        return connection
    }

    @Test("a delayed answer arrives no sooner than its latency")
    func latency() async throws {
        try await RunningProvider.with(Self.settings(.delayed(latency: .milliseconds(300), jitter: .zero))) {
            provider throws in
            let started = ContinuousClock.now
            #expect(try await provider.resource(bearer: nil).status == 401)
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            #expect(
                provider.provider.journal.entries.first?.delivery
                    == .delayed(latency: .milliseconds(300), jitter: .zero)
            )
        }
    }

    @Test("jitter is drawn from the seed: the same seed repeats, another differs")
    func seededJitter() {
        func delays(seed: UInt64) -> [Delivery] {
            var settings = Self.settings(.delayed(latency: .milliseconds(100), jitter: .milliseconds(100)))
            settings.seed = seed
            let provider = MockProvider(settings: settings)
            return (0..<5).map { _ in provider.handle(ProviderRequest(method: "GET", target: "/resource")).delivery }
        }
        #expect(delays(seed: 7) == delays(seed: 7))
        #expect(delays(seed: 7) != delays(seed: 8))
        for case .delayed(let latency, let jitter) in delays(seed: 7) {
            #expect(latency >= .milliseconds(100) && latency < .milliseconds(200) && jitter == .zero)
        }
    }

    @Test("a never-answered request leaves the client to time out")
    func neverAnswered() async throws {
        try await RunningProvider.with(Self.settings(.never)) { provider throws in
            await #expect(throws: (any Error).self) {
                _ = try await provider.send("GET", path: "/resource", timeout: .milliseconds(300))
            }
            #expect(provider.provider.journal.entries.map(\.delivery) == [.never])
        }
    }

    @Test("a reset connection ends in ECONNRESET, not a clean close")
    func reset() async throws {
        try await RunningProvider.with(Self.settings(.reset)) { provider throws in
            let connection = try rawRequest(provider)
            let (text, wasReset) = connection.receive()
            connection.closeConnection()
            #expect(text.isEmpty)
            #expect(wasReset)
        }
    }

    @Test("closing without an answer sends nothing and no reset")
    func closeWithoutAnswer() async throws {
        try await RunningProvider.with(Self.settings(.closeWithoutAnswer)) { provider throws in
            let connection = try rawRequest(provider)
            let (text, wasReset) = connection.receive()
            connection.closeConnection()
            #expect(text.isEmpty)
            #expect(!wasReset)
        }
    }

    @Test("garbage bytes arrive instead of HTTP, then the connection closes")
    func garbage() async throws {
        try await RunningProvider.with(Self.settings(.garbage("\u{1}\u{2}NOT HTTP AT ALL"))) { provider throws in
            let connection = try rawRequest(provider)
            let text = connection.receiveUntilClosed()
            connection.closeConnection()
            #expect(text == "\u{1}\u{2}NOT HTTP AT ALL")
        }
    }

    @Test("a dribbled body arrives whole, a chunk per interval")
    func dribble() async throws {
        let body = String(repeating: "x", count: 40)
        try await RunningProvider.with(Self.settings(.dribble(chunkSize: 10, interval: .milliseconds(100)), body: body))
        { provider throws in
            let started = ContinuousClock.now
            let answer = try await provider.send("GET", path: "/resource")
            #expect(answer.body == body)
            #expect(ContinuousClock.now - started >= .milliseconds(400))
        }
    }
}

@Suite("Rule selection: sequences, windows, call ranges")
struct RuleSelectionTests {
    @Test("an answer held until a later request is sent only once that request has arrived")
    func heldUntilRequest() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(match: RequestMatcher(endpoint: .resource, calls: .nth(1)), delivery: .heldUntilRequest(3))
        ])
        try await RunningProvider.with(settings) { provider throws in
            let held = Task { (try await provider.resource(bearer: nil), ContinuousClock.now) }
            for _ in 0..<500 where provider.provider.journal.lastSequence < 1 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(provider.provider.journal.lastSequence == 1)
            #expect(try await provider.passwordGrant().status == 200)  // request no. 2: the first is still held
            let releasing = ContinuousClock.now
            #expect(try await provider.resource(bearer: nil).status == 401)  // no. 3 releases no. 1
            let (answer, answeredAt) = try await held.value
            #expect(answer.status == 401)
            #expect(answeredAt >= releasing)
            #expect(provider.provider.journal.entries.first?.delivery == .heldUntilRequest(3))
        }
    }

    @Test("a sequence answers 503 twice, then correctly")
    func sequence() async throws {
        let unavailable = RuleAction.respond(ProviderResponse(status: 503, headers: [HeaderField("Retry-After", "1")]))
        let settings = ProviderSettings(rules: [
            ProviderRule(match: RequestMatcher(endpoint: .token), action: .sequence([unavailable, unavailable]))
        ])
        try await RunningProvider.with(settings) { provider throws in
            #expect(try await provider.passwordGrant().status == 503)
            #expect(try await provider.passwordGrant().status == 503)
            #expect(try await provider.passwordGrant().status == 200)
            #expect(try await provider.passwordGrant().status == 200)
        }
    }

    @Test("a rule with a time window is in force only inside it, on virtual time")
    func window() async throws {
        let storm = ProviderRule(
            match: RequestMatcher(endpoint: .resource, during: .seconds(60)..<(.seconds(120))),
            action: .respond(
                ProviderResponse(
                    status: 401,
                    headers: [HeaderField("WWW-Authenticate", "Bearer error=\"invalid_token\"")]
                )
            )
        )
        try await RunningProvider.with(ProviderSettings(rules: [storm])) { provider throws in
            _ = try await provider.passwordGrant()
            #expect(try await provider.resource(bearer: "at-1").status == 200)
            provider.provider.clock.advance(by: .seconds(60))
            #expect(try await provider.resource(bearer: "at-1").status == 401)
            provider.provider.clock.advance(by: .seconds(60))
            #expect(try await provider.resource(bearer: "at-1").status == 200)
        }
    }

    @Test("from: the n-th call and every later one")
    func fromCall() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .resource, calls: .from(2)),
                action: .respond(ProviderResponse(status: 500))
            )
        ])
        try await RunningProvider.with(settings) { provider throws in
            let statuses = try await [1, 2, 3].asyncMap { _ in try await provider.resource(bearer: nil).status }
            #expect(statuses == [401, 500, 500])
        }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
