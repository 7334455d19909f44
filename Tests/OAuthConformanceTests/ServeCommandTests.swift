import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `conformance serve` as a team would use it: started, read, called, stopped.
@Suite("conformance serve")
struct ServeCommandTests {
    @Test("prints its URLs and credentials, logs each request, and stops cleanly on SIGTERM")
    func serveAndStop() async throws {
        let process = Process()
        process.executableURL = PackageFiles.conformanceExecutable
        process.arguments = ["serve"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let reader = LineReader(output.fileHandleForReading)
        let banner = try #require(await reader.lines(until: { $0.hasPrefix("Press Ctrl-C") }, within: .seconds(20)))
        #expect(banner.contains { $0.contains("client                  conformance-client / conformance-secret") })
        let tokenLine = try #require(banner.first { $0.contains("token endpoint") })
        let tokenURL = try #require(tokenLine.split(separator: " ").last.map(String.init))
        #expect(tokenURL.hasPrefix("http://127.0.0.1:"))

        var request = URLRequest(url: try #require(URL(string: tokenURL)))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("Basic " + Data("conformance-client:conformance-secret".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.httpBody = Data("grant_type=client_credentials".utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("\"access_token\""))

        let logged = await reader.lines(until: { $0.contains("POST /token → 200") }, within: .seconds(10))
        let line = try #require(logged?.last, "the request was not logged")
        // StreamLogHandler's format: local time with its offset, level, label, source, message.
        #expect(line.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} info mock-provider: \[MockProvider\] POST \/token → 200/) != nil, "\(line)")

        process.terminate()  // SIGTERM
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
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
    func lines(until done: (String) -> Bool, within limit: Duration) async -> [String]? {
        let deadline = ContinuousClock.now + limit
        var lines: [String] = []
        while ContinuousClock.now < deadline {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                lines.append(line)
                if done(line) { return lines }
            }
            var pollDescriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 0) > 0 else {
                try? await Task.sleep(for: .milliseconds(20))
                continue
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
        return nil
    }
}
