import Foundation
import MockProvider
import Testing

/// The provider frames its answers itself; these observe the framing on the wire.
@Suite("HTTP framing, observed on the wire")
struct HTTPFramingTests {
    @Test("pipelined requests are answered in order, the one behind a delayed answer after it")
    func pipelinedBehindDelayedAnswer() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .resource, calls: .nth(1)),
                action: .respond(ProviderResponse(status: 503, body: "first")),
                delivery: .delayed(latency: .milliseconds(200), jitter: .zero)
            )
        ])
        try await RunningProvider.with(settings) { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            connection.send(
                "GET /resource HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /resource HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            let answers = connection.receiveUntilClosed()
            connection.closeConnection()
            // Bodies end without a line break, so each answer is found by its status line.
            let statuses = answers.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["503", "401", "404"])
            #expect(answers.contains("\r\n\r\nfirstHTTP/1.1 401"))
            // The provider met each request only when its turn came, in the order sent.
            #expect(provider.provider.journal.entries.map(\.response.status) == [503, 401, 404])
        }
    }

    @Test("answers to requests on many kept-alive connections at once all arrive, and the connections stay open")
    func keptAliveAnswersAllArrive() async throws {
        try await RunningProvider.with { provider throws in
            let port = try #require(provider.server.port)
            let connections = try (0..<12).map { _ in try RawConnection(port: port) }
            defer { for connection in connections { connection.closeConnection() } }
            // Every request is sent before any answer is read, so the provider meets several in
            // one pass of its event loops and flushes their answers together.
            for round in 1...2 {
                for connection in connections {
                    connection.send("GET /nowhere?round=\(round) HTTP/1.1\r\nHost: x\r\n\r\n")
                }
                let answers = connections.map { $0.receiveAnswer() }
                #expect(
                    answers.allSatisfy { $0.hasPrefix("HTTP/1.1 404") && $0.hasSuffix("not found\n") },
                    "round \(round): \(answers)"
                )
            }
            #expect(provider.provider.journal.entries.count == 24)
        }
    }

    @Test("a body that arrives in several pieces is read whole")
    func bodyInPieces() async throws {
        try await RunningProvider.with { provider throws in
            let client = provider.settings.client
            let basic = Data("\(client.id):\(client.secret)".utf8).base64EncodedString()
            let body = "grant_type=client_credentials&scope=" + String(repeating: "s", count: 3_000)
            let connection = try RawConnection(port: try #require(provider.server.port))
            connection.send(
                "POST /token HTTP/1.1\r\nHost: x\r\nAuthorization: Basic \(basic)\r\nConnection: close\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            )
            // Pauses between the pieces, so each is read on its own.
            for piece in [body.prefix(10), body.dropFirst(10).prefix(1_500), body.dropFirst(1_510)] {
                try await Task.sleep(for: .milliseconds(50))
                connection.send(String(piece))
            }
            let answer = connection.receiveUntilClosed()
            connection.closeConnection()
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(provider.provider.journal.entries.last?.request.body == body)
        }
    }

    @Test("an answer to HEAD carries the length of the body it leaves out")
    func headAnswer() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .resource),
                action: .respond(ProviderResponse(status: 200, body: "twelve bytes"))
            )
        ])
        try await RunningProvider.with(settings) { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            connection.send("HEAD /resource HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let answer = connection.receiveUntilClosed()
            connection.closeConnection()
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(answer.contains("\r\nContent-Length: 12\r\n"))
            #expect(answer.hasSuffix("\r\n\r\n"))
        }
    }

    @Test("scripted headers go out as written, framing headers are the server's, HTTP/1.0 is answered in kind")
    func scriptedHeadersVerbatim() async throws {
        let scripted = ProviderResponse(
            status: 429,
            headers: [
                HeaderField("retry-after", "  7 "),
                HeaderField("Content-Length", "999"),
                HeaderField("X-Odd", "Bearer  , , error="),
            ],
            body: "slow down"
        )
        let settings = ProviderSettings(rules: [
            ProviderRule(match: RequestMatcher(endpoint: .resource), action: .respond(scripted))
        ])
        try await RunningProvider.with(settings) { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            connection.send("GET /resource HTTP/1.0\r\n\r\n")
            let answer = connection.receiveUntilClosed()
            connection.closeConnection()
            #expect(
                answer
                    == "HTTP/1.0 429 Too Many Requests\r\nretry-after:   7 \r\nX-Odd: Bearer  , , error=\r\nContent-Length: 9\r\nConnection: close\r\n\r\nslow down"
            )
        }
    }
}
