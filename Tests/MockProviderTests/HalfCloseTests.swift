import Foundation
import MockProvider
import Testing

/// HTTP/1.1 clients and proxies shut down their sending side once they have sent their last
/// request; every request that arrived before that FIN is still owed its answer.
@Suite("A client that half-closes its connection")
struct HalfCloseTests {
    /// A client-credentials token request: each answer names the token it issued, so the order
    /// of the answers on the wire is the order of the `at-N` they carry.
    static func tokenRequest(_ client: ClientCredentials) -> String {
        let basic = Data("\(client.id):\(client.secret)".utf8).base64EncodedString()
        let body = "grant_type=client_credentials"
        return "POST /token HTTP/1.1\r\nHost: x\r\nAuthorization: Basic \(basic)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// The statuses of the answers in `text`, in the order they arrived.
    static func statuses(_ text: String) -> [String] {
        text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
    }

    @Test("100 pipelined requests, then FIN: all 100 answered in order, then a clean close")
    func pipelinedThenFIN() async throws {
        try await RunningProvider.with { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            defer { connection.closeConnection() }
            connection.send(String(repeating: Self.tokenRequest(provider.settings.client), count: 100))
            connection.finishSending()
            let (answers, reset) = connection.receive()
            #expect(!reset)
            #expect(Self.statuses(answers) == Array(repeating: "200", count: 100))
            let issued = answers.matches(of: /"access_token":"at-(\d+)"/).compactMap { Int($0.output.1) }
            #expect(issued.count == 100)
            #expect(issued == issued.sorted() && Set(issued).count == issued.count, "answers out of order: \(issued)")
            #expect(provider.provider.journal.entries.count == 100)
        }
    }

    @Test("a FIN behind a delayed answer: that answer and the ones queued behind it arrive, then the close")
    func finBehindDelayedAnswer() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .resource, calls: .nth(1)),
                action: .respond(ProviderResponse(status: 503, body: "first")),
                delivery: .delayed(latency: .milliseconds(200), jitter: .zero)
            )
        ])
        try await RunningProvider.with(settings) { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            defer { connection.closeConnection() }
            connection.send(String(repeating: "GET /resource HTTP/1.1\r\nHost: x\r\n\r\n", count: 3))
            connection.finishSending()
            let (answers, reset) = connection.receive()
            #expect(!reset)
            #expect(Self.statuses(answers) == ["503", "401", "401"])
        }
    }

    @Test("a FIN in the middle of a request: the complete ones before it are answered, the torn one is dropped")
    func finMidRequest() async throws {
        try await RunningProvider.with { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            defer { connection.closeConnection() }
            connection.send(
                String(repeating: "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n", count: 2) + "GET /nowhere HTTP/1.1\r\nHo"
            )
            connection.finishSending()
            let (answers, reset) = connection.receive()
            #expect(!reset)
            #expect(Self.statuses(answers) == ["404", "404"])
            #expect(provider.provider.journal.entries.count == 2)
        }
    }

    @Test("a FIN on a connection that has already been answered: the requests since are answered too")
    func finAfterSomeAnswersWereRead() async throws {
        try await RunningProvider.with { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            defer { connection.closeConnection() }
            let request = Self.tokenRequest(provider.settings.client)
            connection.send(String(repeating: request, count: 10))
            let early = connection.receive { Self.statuses(String(decoding: $0, as: UTF8.self)).count >= 10 }.text
            connection.send(String(repeating: request, count: 10))
            connection.finishSending()
            let (late, reset) = connection.receive()
            #expect(!reset)
            #expect(Self.statuses(early + late) == Array(repeating: "200", count: 20))
        }
    }
}
