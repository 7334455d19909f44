import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A native app's redirect listener (RFC 8252 §7.3): HTTP on 127.0.0.1 and a port the system
/// chooses, waiting for the one request the browser makes when the provider redirects it. That
/// request is answered with a small page telling the user to go back to the app, and its target
/// (path and query) kept; a request for another path (a browser's favicon) gets a 404 and is not
/// the redirect. The listener stops listening once it has the redirect or is closed.
final class LoopbackListener: Sendable {
    /// The port the system chose.
    let port: Int
    private let channel: Channel
    private let redirect: Redirect

    private init(port: Int, channel: Channel, redirect: Redirect) {
        self.port = port
        self.channel = channel
        self.redirect = redirect
    }

    /// Listens for a request to `path`.
    static func start(
        path: String,
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> LoopbackListener {
        let redirect = Redirect(promise: group.next().makePromise(of: String?.self))
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 8)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    let pipeline = child.pipeline.syncOperations
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(RedirectReceiver(path: path, redirect: redirect))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return LoopbackListener(port: channel.localAddress?.port ?? 0, channel: channel, redirect: redirect)
    }

    /// The target of the redirect the browser brought (`/callback?code=…`), waiting at most
    /// `limit` of real time for it; `nil` when none came, or the listener was closed first.
    func redirectTarget(within limit: TimeAmount) async -> String? {
        let redirect = self.redirect
        let timer = channel.eventLoop.scheduleTask(in: limit) { redirect.deliver(nil) }
        let target = try? await redirect.promise.futureResult.get()
        timer.cancel()
        try? await channel.close()
        return target ?? nil
    }

    /// Stops listening; a wait under way ends with no redirect.
    func close() async {
        redirect.deliver(nil)
        try? await channel.close()
    }

    /// The redirect, delivered once: the first of the browser's request, the time limit and closing.
    fileprivate final class Redirect: Sendable {
        let promise: EventLoopPromise<String?>
        private let delivered = Mutex(false)

        init(promise: EventLoopPromise<String?>) {
            self.promise = promise
        }

        /// Whether this was the delivery; later ones are dropped.
        @discardableResult
        func deliver(_ target: String?) -> Bool {
            let first = delivered.withLock { done in
                defer { done = true }
                return !done
            }
            if first { promise.succeed(target) }
            return first
        }
    }
}

/// Answers each request on one connection of the listener, and hands the first one for the
/// redirect's path over.
private final class RedirectReceiver: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let page =
        "<!doctype html><title>Signed in</title><p>The sign-in reached the application. You can close this window.</p>\n"

    let path: String
    let redirect: LoopbackListener.Redirect
    private var target: String?

    init(path: String, redirect: LoopbackListener.Redirect) {
        self.path = path
        self.redirect = redirect
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): target = head.uri
        case .body: break
        case .end:
            let requested = target ?? ""
            target = nil
            let isRedirect = requested.split(separator: "?", maxSplits: 1).first.map(String.init) == path
            if isRedirect, redirect.deliver(requested) {
                respond(context, .ok, Self.page)
            } else {
                respond(context, .notFound, "<!doctype html><title>Not found</title><p>Nothing here.</p>\n")
            }
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ page: String) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(page.utf8.count)")
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
            promise: nil
        )
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: page)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
