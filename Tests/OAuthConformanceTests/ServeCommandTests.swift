import Foundation
import MockProvider
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `conformance serve` as a team would use it: started, read, called, stopped.
@Suite("conformance serve")
struct ServeCommandTests {
    /// `conformance serve` with these arguments, started, and the banner it prints up to "Press Ctrl-C".
    /// The caller terminates the process.
    static func serve(_ arguments: [String]) async throws -> (Process, LineReader, [String]) {
        let process = Process()
        process.executableURL = PackageFiles.conformanceExecutable
        process.arguments = ["serve"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = LineReader(output.fileHandleForReading)
        guard let banner = await reader.lines(until: { $0.hasPrefix("Press Ctrl-C") }, within: .seconds(20)) else {
            process.terminate()
            throw FixtureError(message: "conformance serve printed no banner within 20 s")
        }
        return (process, reader, banner)
    }

    @Test("prints its URLs and credentials, logs each request, and stops cleanly on SIGTERM")
    func serveAndStop() async throws {
        let (process, reader, banner) = try await Self.serve([])
        defer { if process.isRunning { process.terminate() } }
        #expect(banner.contains { $0.contains("client                  conformance-client / conformance-secret") })
        #expect(
            banner.contains {
                $0.hasPrefix("  device authorization    http://127.0.0.1:") && $0.hasSuffix("/device_authorization")
            }
        )
        #expect(
            banner.contains {
                $0.hasPrefix("  app server (exchange)   http://127.0.0.1:") && $0.hasSuffix("/app/token")
            }
        )
        let tokenLine = try #require(banner.first { $0.contains("token endpoint") })
        let tokenURL = try #require(tokenLine.split(separator: " ").last.map(String.init))
        #expect(tokenURL.hasPrefix("http://127.0.0.1:"))

        var request = URLRequest(url: try #require(URL(string: tokenURL)))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue(
            "Basic " + Data("conformance-client:conformance-secret".utf8).base64EncodedString(),
            forHTTPHeaderField: "Authorization"
        )
        request.httpBody = Data("grant_type=client_credentials".utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("\"access_token\""))

        let logged = await reader.lines(until: { $0.contains("POST /token → 200") }, within: .seconds(10))
        let line = try #require(logged?.last, "the request was not logged")
        // StreamLogHandler's format: local time with its offset, level, label, source, message.
        #expect(
            line.wholeMatch(
                of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} info mock-provider: \[MockProvider\] POST \/token → 200/
            ) != nil,
            "\(line)"
        )

        process.terminate()  // SIGTERM
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
    }

    @Test("with a scenario registering private_key_jwt, the banner gives the client key to sign with")
    func clientKeyForPrivateKeyJWT() async throws {
        let scenario = FileManager.default.temporaryDirectory.appendingPathComponent("serve-private-key-jwt.yaml")
        try """
        conformance: 1
        id: security/serve-private-key-jwt
        title: t
        area: security
        level: MUST
        provider:
          client_authentication: private_key_jwt
        steps:
          - login: client_credentials
        expect:
          - every_step: succeeds
        """.write(to: scenario, atomically: true, encoding: .utf8)
        let (process, _, banner) = try await Self.serve(["--scenario", scenario.path])
        defer { if process.isRunning { process.terminate() } }
        let keyLine = try #require(banner.first { $0.hasPrefix("  client key (private_key_jwt)") })
        let jwk = try #require(JSONValue.parse(String(keyLine.drop { $0 != "{" })))
        #expect(jwk["d"]?.stringValue?.isEmpty == false && jwk["kid"]?.stringValue == RegisteredClientKey.shared.kid)
        let plain = try await Self.serve([])
        plain.0.terminate()
        #expect(!plain.2.contains { $0.contains("client key") })
    }

    @Test("--head-timeout and --body-timeout bound a stalled head and a stalled body, each answered 408")
    func requestTimeouts() async throws {
        let (process, _, banner) = try await Self.serve(["--head-timeout", "300ms", "--body-timeout", "300ms"])
        defer { if process.isRunning { process.terminate() } }
        let issuer = try #require(banner.first { $0.contains("issuer") }?.split(separator: ":").last)
        let port = try #require(Int(issuer))
        // Each read waits at most 10 s; the bounds are 300 ms.
        let stalledHead = try StalledRequest.answer(port: port, sending: "GET /resource HTTP/1.1\r\nHost: x\r\nAuth")
        #expect(stalledHead.hasPrefix("HTTP/1.1 408"), "\(stalledHead)")
        let stalledBody = try StalledRequest.answer(
            port: port,
            sending: "POST /token HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\ngrant_type="
        )
        #expect(stalledBody.hasPrefix("HTTP/1.1 408"), "\(stalledBody)")
    }

    @Test("a timeout without a unit or not above zero is a usage error (exit 2); --help names both timeouts")
    func timeoutArguments() async throws {
        let unitless = try await ProcessRun.conformance(["serve", "--head-timeout", "5"])
        #expect(unitless.status == 2, "\(unitless.standardError)")
        #expect(unitless.standardError.contains("has no unit"), "\(unitless.standardError)")
        let zero = try await ProcessRun.conformance(["serve", "--body-timeout", "0s"])
        #expect(zero.status == 2, "\(zero.standardError)")
        #expect(zero.standardError.contains("--body-timeout must be positive"), "\(zero.standardError)")
        let help = try await ProcessRun.conformance(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("--head-timeout <head-timeout>"), "\(help.standardOutput)")
        #expect(help.standardOutput.contains("--body-timeout <body-timeout>"), "\(help.standardOutput)")
    }
}

/// A request sent in part over a plain socket to 127.0.0.1, and everything the server sends back
/// until it closes (or 10 s pass without a byte).
enum StalledRequest {
    struct Failure: Error {}

    static func answer(port: Int, sending text: String) throws -> String {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure() }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure() }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw Failure() }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<1_000 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// Reads a child's output line by line with a time limit, so a silent child cannot hang a test.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The lines read until one satisfies `done` (included), or nil when time runs out first.
    /// Between reads it sleeps as a task, leaving the cooperative pool to the tests beside it.
    /// Whatever the child wrote before the deadline counts: a task that the tests beside it kept
    /// off the pool past the deadline still reads what is waiting before it gives up.
    func lines(until done: (String) -> Bool, within limit: Duration) async -> [String]? {
        let deadline = ContinuousClock.now + limit
        var lines: [String] = []
        while true {
            let pastDeadline = ContinuousClock.now >= deadline
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                lines.append(line)
                if done(line) { return lines }
            }
            var pollDescriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pollDescriptor, 1, 0) > 0 {
                let chunk = handle.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
                continue
            }
            if pastDeadline { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
