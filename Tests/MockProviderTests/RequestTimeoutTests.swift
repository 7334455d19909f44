import MockProvider
import Testing

/// The bounds on how long a client may take over a request, with short bounds so the tests run
/// fast. The provider's answer, not the time it took, is what each test checks.
@Suite("The provider bounds how long a request may take")
struct RequestTimeoutTests {
    static let shortBounds = ProviderSettings(
        requestTimeouts: RequestTimeouts(head: .milliseconds(300), body: .milliseconds(300))
    )

    @Test("a head stalled mid-line gets 408 once the head bound passes")
    func headStalledMidLine() async throws {
        try await RunningProvider.with(Self.shortBounds) { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            defer { connection.closeConnection() }
            connection.send("GET /resource HTTP/1.1\r\nHost: x\r\nAuthori")
            let (answer, reset) = connection.receive()
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            #expect(answer.contains("\r\nConnection: close\r\n"))
            #expect(!reset)
        }
    }

    @Test("a head drip-fed a byte every 50 ms gets 408 once the head bound passes: a new byte does not restart it")
    func headDripFed() async throws {
        try await RunningProvider.with(Self.shortBounds) { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            defer { connection.closeConnection() }
            // 200 bytes at one per 50 ms would take 10 s; the head bound is 300 ms.
            let head = "GET /resource HTTP/1.1\r\nHost: x\r\nX-Slow: " + String(repeating: "a", count: 160)
            var sent = 0
            for byte in head where !connection.hasSomethingToRead() {
                guard connection.trySend(String(byte)) else { break }
                sent += 1
                try await Task.sleep(for: .milliseconds(50))
            }
            let (answer, _) = connection.receive()
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            #expect(sent < head.utf8.count, "the provider let the whole head trickle in")
            #expect(provider.provider.journal.entries.isEmpty)
        }
    }

    @Test("a body stalled midway gets 408 once the body bound passes")
    func bodyStalled() async throws {
        try await RunningProvider.with(Self.shortBounds) { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            defer { connection.closeConnection() }
            connection.send("POST /token HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\ngrant_type=")
            let answer = connection.receiveUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        }
    }

    @Test("a kept-alive connection quiet between requests for longer than the head bound is not sent 408")
    func quietBetweenRequests() async throws {
        try await RunningProvider.with(Self.shortBounds) { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            defer { connection.closeConnection() }
            connection.send("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(connection.receiveAnswer().hasPrefix("HTTP/1.1 404"))
            try await Task.sleep(for: .milliseconds(700))
            #expect(!connection.hasSomethingToRead())
            connection.send("GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(connection.receiveAnswer().hasPrefix("HTTP/1.1 404"))
        }
    }

    @Test("a head sent in pieces further apart than the body bound is answered: the head bound governs a head")
    func headInPiecesWithinBound() async throws {
        // A head bound far beyond the pauses, however slowly a busy machine wakes this task.
        let settings = ProviderSettings(requestTimeouts: RequestTimeouts(head: .seconds(60), body: .milliseconds(50)))
        try await RunningProvider.with(settings) { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            defer { connection.closeConnection() }
            for piece in ["GET /nowh", "ere HTTP/1.1\r\nHo", "st: x\r\n", "\r\n"] {
                connection.send(piece)
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(connection.receiveAnswer().hasPrefix("HTTP/1.1 404"))
        }
    }
}
