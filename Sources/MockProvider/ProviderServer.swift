import NIOCore
import NIOHTTP1
import NIOPosix

/// Serves a `MockProvider` over HTTP/1.1 on loopback.
public final class ProviderServer: Sendable {
    public let provider: MockProvider
    /// The origin clients talk to, e.g. `http://127.0.0.1:52311`.
    public let baseURL: String
    /// The port bound, useful when 0 asked for an ephemeral one.
    public let port: Int?
    private let channel: Channel

    private init(provider: MockProvider, channel: Channel, baseURL: String) {
        self.provider = provider
        self.channel = channel
        self.baseURL = baseURL
        self.port = channel.localAddress?.port
    }

    public var tokenEndpointURL: String { baseURL + Endpoint.token.path }
    public var resourceURL: String { baseURL + Endpoint.resource.path }

    /// Binds `host` (loopback unless told otherwise) on `port` (0: an ephemeral port) and starts serving.
    public static func start(
        _ provider: MockProvider,
        host: String = "127.0.0.1",
        port: Int = 0,
        maximumBodySize: Int = 1 << 20,
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> ProviderServer {
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(
                        HTTPExchangeHandler(maximumBodySize: maximumBodySize, respond: provider.handle)
                    )
                }
            }
            .bind(host: host, port: port)
            .get()
        let boundPort = channel.localAddress?.port ?? port
        let urlHost = host.contains(":") ? "[\(host)]" : host
        return ProviderServer(provider: provider, channel: channel, baseURL: "http://\(urlHost):\(boundPort)")
    }

    /// Stops accepting connections.
    public func shutdown() async {
        try? await channel.close()
    }
}
