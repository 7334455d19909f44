import MockProvider
import Testing

@Suite("The provider survives bad clients")
struct RobustnessTests {
    @Test("malformed HTTP gets 400 and the provider keeps serving")
    func malformedRequest() async throws {
        try await RunningProvider.with { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            connection.send("THIS IS NOT HTTP\r\n\r\n")
            let answer = connection.receiveUntilClosed()
            connection.closeConnection()
            #expect(answer.hasPrefix("HTTP/1.1 400"))
            #expect(try await provider.passwordGrant().status == 200)
        }
    }

    @Test("a body over the limit gets 413 and a closed connection")
    func oversizedBody() async throws {
        try await RunningProvider.with { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            let body = String(repeating: "a", count: (1 << 20) + 10)
            connection.send(
                "POST /token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            let answer = connection.receiveUntilClosed()
            connection.closeConnection()
            #expect(answer.hasPrefix("HTTP/1.1 413"))
            #expect(try await provider.passwordGrant().status == 200)
        }
    }
}

@Suite("The provider bounds what clients send")
struct BoundsTests {
    @Test("oversized headers get 400 and a closed connection")
    func oversizedHeaders() async throws {
        try await RunningProvider.with { provider throws in
            let connection = try RawConnection(port: try #require(provider.server.port))
            connection.send(
                "GET /resource HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n\r\n"
            )
            let answer = connection.receiveUntilClosed()
            connection.closeConnection()
            #expect(answer.hasPrefix("HTTP/1.1 400"))
        }
    }

    @Test("a connection that sends nothing is closed without an answer once the idle timeout passes")
    func silentClient() async throws {
        let server = try await ProviderServer.start(
            MockProvider(),
            options: ServerOptions(idleTimeout: .milliseconds(300))
        )
        let connection = try RawConnection(port: try #require(server.port))
        let (answer, reset) = connection.receive()
        connection.closeConnection()
        await server.shutdown()
        #expect(answer.isEmpty)
        #expect(!reset)
    }
}
