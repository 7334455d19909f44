import NIOCore
import NIOHTTP1
import NIOPosix

/// Assembles one HTTP/1.1 request from its parts, hands it to the provider, and delivers the
/// reply the way the provider asks: at once, late, dribbled, never, or not as HTTP at all.
/// Bodies beyond `maximumBodySize` get 413; a client that stops sending mid-request gets 408.
final class HTTPExchangeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case idle
        case receiving(HTTPRequestHead, ByteBuffer)
        /// The request was refused (413); the rest of it is ignored until the connection closes.
        case discarding
    }

    private let maximumBodySize: Int
    private let respond: @Sendable (ProviderRequest) -> ProviderReply
    /// How many requests the provider has received so far, for answers held until a later one.
    private let requestsReceived: @Sendable () -> Int
    private var state = State.idle

    init(
        maximumBodySize: Int, requestsReceived: @escaping @Sendable () -> Int = { .max },
        respond: @escaping @Sendable (ProviderRequest) -> ProviderReply
    ) {
        self.maximumBodySize = maximumBodySize
        self.requestsReceived = requestsReceived
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
            deliver(respond(request), version: head.version, keepAlive: head.isKeepAlive, context: context)
        case (.body, _), (.end, _):
            break
        }
    }

    /// Malformed HTTP has already been answered with 400 by NIO's protocol error handler; the
    /// connection cannot be trusted further, so it is closed.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// A connection that sends nothing for the idle timeout is closed; one that stalled in the
    /// middle of a request is told so first (408).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if case .receiving(let head, _) = state {
            state = .discarding
            write(ProviderResponse(status: 408, body: "request timed out\n"), version: head.version, keepAlive: false, context: context)
        } else {
            context.close(promise: nil)
        }
    }

    // MARK: Delivery

    private func deliver(_ reply: ProviderReply, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        switch reply.delivery {
        case .immediate:
            write(reply.response, version: version, keepAlive: keepAlive, context: context)
        case .delayed(let latency, _):
            later(latency, context) { handler, context in
                handler.write(reply.response, version: version, keepAlive: keepAlive, context: context)
            }
        case .never:
            break
        case .reset:
            // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
            let channel = context.channel
            guard let socket = channel as? SocketOptionProvider else {
                channel.close(promise: nil)
                return
            }
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
        case .closeWithoutAnswer:
            context.close(promise: nil)
        case .garbage(let bytes):
            writeBypassingHTTP(context.channel.allocator.buffer(string: bytes), context: context)
        case .dribble(let chunkSize, let interval):
            dribble(reply.response, chunkSize: max(chunkSize, 1), interval: interval, version: version, keepAlive: keepAlive, context: context)
        case .heldUntilRequest(let number):
            hold(reply.response, until: number, checksLeft: 2_000, version: version, keepAlive: keepAlive, context: context)
        }
    }

    /// Writes the response once request no. `number` has arrived, looking every 5 ms.
    private func hold(
        _ response: ProviderResponse, until number: Int, checksLeft: Int, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        guard requestsReceived() < number, checksLeft > 0 else {
            write(response, version: version, keepAlive: keepAlive, context: context)
            return
        }
        later(.milliseconds(5), context) { handler, context in
            handler.hold(response, until: number, checksLeft: checksLeft - 1, version: version, keepAlive: keepAlive, context: context)
        }
    }

    private func write(_ response: ProviderResponse, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext) {
        let body = context.channel.allocator.buffer(string: response.body)
        context.write(wrapOutboundOut(.head(head(of: response, bodySize: body.readableBytes, version: version, keepAlive: keepAlive))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        end(keepAlive: keepAlive, context: context)
    }

    private func dribble(
        _ response: ProviderResponse, chunkSize: Int, interval: Duration, version: HTTPVersion, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var body = context.channel.allocator.buffer(string: response.body)
        context.writeAndFlush(wrapOutboundOut(.head(head(of: response, bodySize: body.readableBytes, version: version, keepAlive: keepAlive))), promise: nil)
        var chunks: [ByteBuffer] = []
        while body.readableBytes > 0, let chunk = body.readSlice(length: min(chunkSize, body.readableBytes)) { chunks.append(chunk) }
        sendChunks(ArraySlice(chunks), every: interval, keepAlive: keepAlive, context: context)
    }

    private func sendChunks(_ chunks: ArraySlice<ByteBuffer>, every interval: Duration, keepAlive: Bool, context: ChannelHandlerContext) {
        guard let chunk = chunks.first else {
            end(keepAlive: keepAlive, context: context)
            return
        }
        later(interval, context) { handler, context in
            guard context.channel.isActive else { return }
            context.writeAndFlush(handler.wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
            handler.sendChunks(chunks.dropFirst(), every: interval, keepAlive: keepAlive, context: context)
        }
    }

    private func head(of response: ProviderResponse, bodySize: Int, version: HTTPVersion, keepAlive: Bool) -> HTTPResponseHead {
        // The framing headers are the server's: scripted ones are dropped and the real ones go last.
        var headers = HTTPHeaders()
        headers.reserveCapacity(response.headers.count + 2)
        for field in response.headers where !field.isNamed("Content-Length") && !field.isNamed("Connection") {
            headers.add(name: field.name, value: field.value)
        }
        headers.add(name: "Content-Length", value: String(bodySize))
        headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
        return HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
    }

    private func end(keepAlive: Bool, context: ChannelHandlerContext) {
        guard !keepAlive else {
            // No promise: nothing waits for this write, and one per response is an allocation per request.
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Raw bytes straight to the socket: written from the response encoder's position, so they
    /// pass below it rather than through it.
    private func writeBypassingHTTP(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        let channel = context.channel
        guard let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) else {
            channel.close(promise: nil)
            return
        }
        encoder.writeAndFlush(NIOAny(bytes)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Runs `work` on this connection's event loop after `delay`, if the connection is still open.
    private func later(_ delay: Duration, _ context: ChannelHandlerContext, _ work: @escaping (HTTPExchangeHandler, ChannelHandlerContext) -> Void) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: TimeAmount(delay)) {
            let (handler, context) = bound.value
            guard context.channel.isActive else { return }
            work(handler, context)
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let parts = duration.components
        self = .nanoseconds(parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000)
    }
}
