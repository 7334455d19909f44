import ArgumentParser
import Foundation
import Logging
import MockProvider
import OAuthConformance

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

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard journalCapacity > 0 else { throw ValidationError("--journal-capacity must be positive") }
    }

    func run() async throws {
        let settings = try providerSettings()
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            Console.error("warning: binding \(host), not loopback: anyone who can reach this address can obtain test tokens")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = .info
            return handler
        }
        let provider = MockProvider(
            settings: settings, clock: .followingRealTime(), journal: Journal(capacity: journalCapacity),
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
            "  authorization endpoint  \(server.baseURL)\(Endpoint.authorize.path)",
            "  token endpoint          \(server.tokenEndpointURL)",
            "  revocation endpoint     \(server.baseURL)\(Endpoint.revoke.path)",
            "  introspection endpoint  \(server.baseURL)\(Endpoint.introspect.path)",
            "  protected resource      \(server.resourceURL)",
            "  other origin            \(server.otherOriginURL)",
            "  client                  \(settings.client.id) / \(settings.client.secret)",
            "  user                    \(settings.user.username) / \(settings.user.password)",
            "  redirect URIs           \(settings.redirectURIs.joined(separator: ", "))",
        ]
        if let caFile = server.caCertificateFile { lines.append("  CA certificate          \(caFile)") }
        lines.append("Press Ctrl-C to stop.")
        return lines.joined(separator: "\n")
    }
}
