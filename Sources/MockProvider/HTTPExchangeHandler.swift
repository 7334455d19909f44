import NIOCore
import NIOHTTP1

/// Assembles one HTTP/1.1 request from its parts, hands it to the provider and writes the answer.
/// Bodies beyond `maximumBodySize` get 413 and the connection is closed.
final class HTTPExchangeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case idle
        case receiving(HTTPRequestHead, ByteBuffer)
        /// The body overflowed; the rest of the request is ignored until the connection closes.
        case discarding
    }

    private let maximumBodySize: Int
    private let respond: @Sendable (ProviderRequest) -> ProviderResponse
    private var state = State.idle

    init(maximumBodySize: Int, respond: @escaping @Sendable (ProviderRequest) -> ProviderResponse) {
        self.maximumBodySize = maximumBodySize
        self.respond = respond
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), _):
            state = .receiving(head, context.channel.allocator.buffer(capacity: 0))
        case (.body(var chunk), .receiving(let head, var body)):
            guard body.readableBytes + chunk.readableBytes <= maximumBodySize else {
                state = .discarding
                write(ProviderResponse(status: 413, body: "request body too large\n"), version: head.version, keepAlive: false, context: context)
                return
            }
            body.writeBuffer(&chunk)
            state = .receiving(head, body)
        case (.end, .receiving(let head, let body)):
            state = .idle
            let request = ProviderRequest(
                method: head.method.rawValue,
                target: head.uri,
                headers: head.headers.map { HeaderField($0.name, $0.value) },
                body: String(buffer: body)
            )
            write(respond(request), version: head.version, keepAlive: head.isKeepAlive, context: context)
        case (.body, _), (.end, _):
            break
        }
    }

    /// Malformed HTTP has already been answered with 400 by NIO's protocol error handler; the
    /// connection cannot be trusted further, so it is closed.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func write(_ response: ProviderResponse, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        let body = context.channel.allocator.buffer(string: response.body)
        headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
        headers.replaceOrAdd(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let written = context.writeAndFlushWithFuture(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            written.whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

extension ChannelHandlerContext {
    fileprivate func writeAndFlushWithFuture(_ data: NIOAny) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        writeAndFlush(data, promise: promise)
        return promise.futureResult
    }
}
