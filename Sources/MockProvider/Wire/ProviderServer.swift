import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// How the provider is put on the network.
public struct ServerOptions: Sendable {
    /// Loopback unless told otherwise.
    public var host: String
    /// 0: an ephemeral port.
    public var port: Int
    public var maximumBodySize: Int
    /// Real time a connection may stay silent between requests, or while it waits for an answer,
    /// before it is closed without one. A client slow in the middle of a request is bounded by
    /// the provider's `ProviderSettings.requestTimeouts` instead, and answered 408.
    public var idleTimeout: Duration

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        maximumBodySize: Int = 1 << 20,
        idleTimeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.maximumBodySize = maximumBodySize
        self.idleTimeout = idleTimeout
    }
}

/// Serves a `MockProvider` over HTTP/1.1: the primary origin (HTTPS when the settings name a
/// certificate variant), and a second, plain HTTP origin on another port that redirect
/// scenarios point to.
public final class ProviderServer: Sendable {
    public let provider: MockProvider
    /// The origin clients talk to, e.g. `http://127.0.0.1:52311`.
    public let baseURL: String
    /// Another origin serving the same provider, e.g. the target of a cross-origin redirect.
    public let otherOriginURL: String
    /// The port of the primary origin.
    public let port: Int?
    /// The certificates of the HTTPS origin, when there is one.
    public let pki: TestPKI?
    /// A PEM file holding the test CA, for clients that take a CA file; removed at shutdown.
    public let caCertificateFile: String?
    private let listeners: [Channel]
    private let connections: ConnectionRegistry

    private init(
        provider: MockProvider,
        listeners: [Channel],
        connections: ConnectionRegistry,
        origins: ProviderOrigins,
        pki: TestPKI?,
        caCertificateFile: String?
    ) {
        self.provider = provider
        self.listeners = listeners
        self.connections = connections
        self.baseURL = origins.primary
        self.otherOriginURL = origins.other
        self.port = listeners.first?.localAddress?.port
        self.pki = pki
        self.caCertificateFile = caCertificateFile
    }

    public var tokenEndpointURL: String { baseURL + Endpoint.token.path }
    public var resourceURL: String { baseURL + Endpoint.resource.path }

    public static func start(
        _ provider: MockProvider,
        options: ServerOptions = ServerOptions(),
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> ProviderServer {
        let connections = ConnectionRegistry()
        let variant = provider.settings.tls
        let pki = try variant.map { _ in try TestPKI(alsoAt: provider.clock.now) }
        let tlsContext = try variant.flatMap { variant in try pki.map { try makeTLSContext($0.identity(variant)) } }
        var listeners: [Channel] = []
        do {
            for (role, port, tls) in [(Listener.primary, options.port, tlsContext), (.otherOrigin, 0, nil)] {
                listeners.append(
                    try await bind(
                        provider,
                        role: role,
                        host: options.host,
                        port: port,
                        tls: tls,
                        options: options,
                        connections: connections,
                        group: group
                    )
                )
            }
        } catch {
            for listener in listeners { try? await listener.close() }
            throw error
        }
        let origins = ProviderOrigins(
            primary: origin(options.host, listeners[0], secure: tlsContext != nil),
            other: origin(options.host, listeners[1], secure: false)
        )
        provider.origins.set(origins)
        let caFile = try pki.map { pki in
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "oauth-conformance-ca-\(UUID().uuidString).pem"
            ).path
            try Data(pki.caCertificatePEM.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        return ProviderServer(
            provider: provider,
            listeners: listeners,
            connections: connections,
            origins: origins,
            pki: pki,
            caCertificateFile: caFile
        )
    }

    private static func makeTLSContext(_ identity: TestPKI.ServerIdentity) throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: identity.certificateDER, format: .der))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem))
        )
        // On close the handler sends close_notify and waits for the peer's before closing the
        // socket. A client that reads nothing from an idle kept-alive connection (the JDK's
        // HttpURLConnection pool) never answers it, and every TLS scenario would wait NIOSSL's
        // default 5 s at shutdown; the provider is done with the connection either way.
        configuration.shutdownTimeout = .milliseconds(50)
        return try NIOSSLContext(configuration: configuration)
    }

    /// Stops accepting connections and closes the open ones, including those held open on purpose.
    public func shutdown() async {
        for listener in listeners { try? await listener.close() }
        await connections.closeAll()
        if let caCertificateFile { try? FileManager.default.removeItem(atPath: caCertificateFile) }
    }

    private static func bind(
        _ provider: MockProvider,
        role: Listener,
        host: String,
        port: Int,
        tls: NIOSSLContext?,
        options: ServerOptions,
        connections: ConnectionRegistry,
        group: EventLoopGroup
    ) async throws -> Channel {
        let requestTimeouts = provider.settings.requestTimeouts
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // A client's FIN then ends only its side: HTTP/1.1 clients send one after their last
            // request and still read the answers (`HTTPExchangeHandler` closes once they are out).
            // Plain HTTP only: over TLS an end of input stays the end of the connection.
            .childChannelOption(.allowRemoteHalfClosure, value: tls == nil)
            .childChannelInitializer { channel in
                connections.register(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
                    // NIO's request decoder (llhttp) parses; the exchange handler frames answers itself
                    // and keeps the idle, head and body deadlines.
                    try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try pipeline.addHandler(
                        HTTPExchangeHandler(
                            maximumBodySize: options.maximumBodySize,
                            listener: role,
                            deadlines: ReadDeadlines(idle: options.idleTimeout, request: requestTimeouts),
                            requestsReceived: { provider.requestNumber },
                            respond: provider.handle
                        )
                    )
                }
            }
            .bind(host: host, port: port)
            .get()
    }

    private static func origin(_ host: String, _ channel: Channel, secure: Bool) -> String {
        let urlHost = host.contains(":") ? "[\(host)]" : host
        return "\(secure ? "https" : "http")://\(urlHost):\(channel.localAddress?.port ?? 0)"
    }
}

/// The accepted connections, so shutdown can close them all.
final class ConnectionRegistry: Sendable {
    private let open = Mutex<[ObjectIdentifier: Channel]>([:])

    func register(_ channel: Channel) {
        let key = ObjectIdentifier(channel)
        open.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.open.withLock { $0.removeValue(forKey: key) }
        }
    }

    func closeAll() async {
        for channel in open.withLock({ Array($0.values) }) {
            try? await channel.close()
        }
    }
}
