import ArgumentParser
import Foundation
import Logging
import MockProvider
import OAuthConformance
import Synchronization

/// `conformance serve`: the mock provider alone, for teams to point their own integration
/// tests at. Its clock follows real time; it logs every request and stops on SIGINT or SIGTERM
/// (exit 0: stopping is what it is for).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the mock provider alone and print its URLs and credentials."
    )

    @Option(help: "The port of the primary origin (0: any free port).")
    var port = 0

    @Option(help: "The address to bind. Anything but loopback exposes the provider to the network.")
    var host = "127.0.0.1"

    @Option(help: "A scenario file whose provider section (tokens, rules, tls) scripts the provider.")
    var scenario: String?

    @Option(help: "How many requests the journal keeps (the oldest are dropped).")
    var journalCapacity = 10_000

    @Option(help: "How many issued tokens the provider remembers (the oldest are forgotten and no longer accepted).")
    var tokenCapacity = 100_000

    // Durations parse as scenario files write them; ArgumentParser cannot show the default of a
    // transformed option, so the help says it in its own words.
    @Option(
        help: """
            How long a client may take over a request's head, counted from its first byte (e.g. 500ms, 10s); \
            past it, 408 and a close. (default: \(DurationText.format(RequestTimeouts().head)))
            """,
        transform: Serve.duration
    )
    var headTimeout: Duration?

    @Option(
        help: """
            How long a request's body may go without a byte arriving; past it, 408 and a close. \
            (default: \(DurationText.format(RequestTimeouts().body)))
            """,
        transform: Serve.duration
    )
    var bodyTimeout: Duration?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard journalCapacity > 0 else { throw ValidationError("--journal-capacity must be positive") }
        guard tokenCapacity > 0 else { throw ValidationError("--token-capacity must be positive") }
        guard headTimeout.map({ $0 > .zero }) ?? true else { throw ValidationError("--head-timeout must be positive") }
        guard bodyTimeout.map({ $0 > .zero }) ?? true else { throw ValidationError("--body-timeout must be positive") }
    }

    /// `--head-timeout 10s`: durations as scenario files write them.
    static func duration(_ text: String) throws -> Duration {
        switch DurationText.parse(text) {
        case .success(let duration): return duration
        case .failure(let problem): throw ValidationError(problem.message)
        }
    }

    func run() async throws {
        var settings = try providerSettings()
        if let headTimeout { settings.requestTimeouts.head = headTimeout }
        if let bodyTimeout { settings.requestTimeouts.body = bodyTimeout }
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            Console.error(
                "warning: binding \(host), not loopback: anyone who can reach this address can obtain test tokens"
            )
        }
        let log = BufferedStandardOutput()
        LoggingSystem.bootstrap { label in BufferedLogHandler(label: label, output: log) }
        let logFlusher = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                log.flush()
            }
        }
        defer {
            logFlusher.cancel()
            log.flush()
        }
        let provider = MockProvider(
            settings: settings,
            clock: .followingRealTime(),
            journal: Journal(capacity: journalCapacity),
            tokenCapacity: tokenCapacity,
            logger: Logger(label: "mock-provider")
        )
        let server = try await ProviderServer.start(provider, options: ServerOptions(host: host, port: port))
        let (interrupted, interruption) = AsyncStream<Void>.makeStream()
        let signals = InterruptSignals(stopping: "stopping the provider") { interruption.finish() }
        Console.out(Self.banner(server))
        for await _ in interrupted {}
        signals.stop()
        await server.shutdown()
    }

    private func providerSettings() throws -> ProviderSettings {
        guard let scenario else { return ProviderSettings() }
        let scenarios = try ScenarioInput.load([scenario], doing: "the provider was not started")
        guard scenarios.count == 1 else {
            Console.error("conformance: \(scenario) holds \(scenarios.count) scenarios; serve takes a file with one")
            throw ExitCode.inputError
        }
        return scenarios[0].provider
    }

    static func banner(_ server: ProviderServer) -> String {
        let settings = server.provider.settings
        var lines = [
            "Mock OAuth provider listening",
            "  issuer                  \(server.baseURL)",
            "  metadata                \(server.baseURL)\(Endpoint.metadata.path)",
            "  OpenID configuration    \(server.baseURL)\(Endpoint.openIDConfiguration.path)",
            "  authorization endpoint  \(server.baseURL)\(Endpoint.authorize.path)",
            "  token endpoint          \(server.tokenEndpointURL)",
            "  revocation endpoint     \(server.baseURL)\(Endpoint.revoke.path)",
            "  introspection endpoint  \(server.baseURL)\(Endpoint.introspect.path)",
            "  JWKS                    \(server.baseURL)\(Endpoint.jwks.path)",
            "  userinfo endpoint       \(server.baseURL)\(Endpoint.userinfo.path)",
            "  PAR endpoint            \(server.baseURL)\(Endpoint.pushedAuthorization.path)",
            "  device authorization    \(server.baseURL)\(Endpoint.deviceAuthorization.path)",
            "  protected resource      \(server.resourceURL)",
            "  other origin            \(server.otherOriginURL)",
            "  app server (exchange)   \(server.otherOriginURL)\(Endpoint.appToken.path)",
            "  app server (resource)   \(server.otherOriginURL)\(Endpoint.appResource.path)",
            "  client                  \(settings.client.id) / "
                + (settings.clientAuthentication.isConfidential ? settings.client.secret : "(public: no secret)"),
            "  user                    \(settings.user.username) / \(settings.user.password)",
            "  redirect URIs           \(settings.redirectURIs.joined(separator: ", "))",
        ]
        if let caFile = server.caCertificateFile { lines.append("  CA certificate          \(caFile)") }
        if settings.clientAuthentication == .privateKeyJWT {
            // The only way a client can authenticate then: sign assertions with this key.
            lines.append("  client key (private_key_jwt)  \(RegisteredClientKey.shared.privateJWK)")
        }
        if let dpop = settings.dpop {
            lines.append("  DPoP                    " + ScenarioExplanation.dpopPolicy(dpop))
        }
        lines.append("Press Ctrl-C to stop.")
        return lines.joined(separator: "\n")
    }
}

/// Standard output for a line per request under load. Lines collect in a buffer that is written
/// when it fills and, through `flush()`, ten times a second: one write(2) per request, as
/// flushing each line costs, took a tenth of the provider's time.
final class BufferedStandardOutput: Sendable {
    private struct State {
        var pending: [UInt8] = []
        /// The local time of the second `timestampSecond`, as StreamLogHandler writes it.
        var timestamp = ""
        var timestampSecond = -1
    }

    private static let capacity = 64 * 1024
    private let state = Mutex(State())

    /// Appends the timestamp, then what `writeRest` appends, straight into the pending bytes (a
    /// line per request is not worth a string of its own). The timestamp is formatted once a
    /// second: `localtime`, as StreamLogHandler calls it for every line, stats the time zone file
    /// each time.
    func appendLine(afterTimestamp writeRest: (inout [UInt8]) -> Void) {
        state.withLock { state in
            let now = time(nil)
            if now != state.timestampSecond {
                state.timestampSecond = now
                state.timestamp = Self.localTimestamp(now)
            }
            state.pending.append(contentsOf: state.timestamp.utf8)
            writeRest(&state.pending)
            if state.pending.count >= Self.capacity { Self.write(&state.pending) }
        }
    }

    func flush() {
        state.withLock { Self.write(&$0.pending) }
    }

    /// Written under the lock, so lines leave in the order they were appended.
    private static func write(_ pending: inout [UInt8]) {
        pending.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                offset += written
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    private static func localTimestamp(_ second: time_t) -> String {
        var clock = second
        var local = tm()
        var text = [CChar](repeating: 0, count: 64)
        let length = localtime_r(&clock, &local) == nil ? 0 : strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        guard length > 0 else { return "<unknown>" }
        return String(decoding: text[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// StreamLogHandler's line format (`2026-01-01T10:00:00+0000 info mock-provider: [MockProvider] POST /token → 200`),
/// written through a `BufferedStandardOutput`.
struct BufferedLogHandler: LogHandler {
    let label: String
    let output: BufferedStandardOutput
    var logLevel = Logger.Level.info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = event.metadata.map { metadata.merging($0) { _, explicit in explicit } } ?? metadata
        let pretty = merged.isEmpty ? "" : merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        output.appendLine { line in
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: event.level.rawValue.utf8)
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: label.utf8)
            line.append(UInt8(ascii: ":"))
            line.append(contentsOf: pretty.utf8)
            line.append(contentsOf: " [".utf8)
            line.append(contentsOf: event.source.utf8)
            line.append(contentsOf: "] ".utf8)
            line.append(contentsOf: event.message.description.utf8)
            line.append(UInt8(ascii: "\n"))
        }
    }
}
