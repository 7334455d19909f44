import DequeModule
import NIOCore
import NIOHTTP1
import NIOPosix

/// Assembles each HTTP/1.1 request from the parts NIO's request decoder parses, hands it to the
/// provider, and delivers the reply the way the provider asks: at once, late, dribbled, never, or
/// not as HTTP at all. Replies are framed by `HTTPResponseWriter` and written as plain bytes.
///
/// An answer on a kept-alive connection is flushed at the end of the event loop's iteration,
/// together with the answers to the other connections that were ready (`EndOfTickFlusher`).
///
/// Pipelined requests are answered one at a time, in order: a request that arrives while an
/// answer is still on its way waits, and the connection reads no further until that answer is
/// out. Malformed HTTP gets 400, a body beyond `maximumBodySize` gets 413, and a client too slow
/// over a head or a body (`ReadDeadlines`) gets 408; each then loses its connection.
///
/// A client that shuts down its sending side (FIN) after its last request still gets an answer
/// to every request that arrived whole, in order; then the connection closes.
final class HTTPExchangeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Receiving {
        case idle
        /// The body so far: `nil` until a part arrives; a body in one part is kept as NIO read it.
        case request(HTTPRequestHead, ByteBuffer?)
        /// The request was refused (413); the rest of it is ignored until the connection closes.
        case discarding
    }

    /// A complete request and how to frame its answer.
    private struct Exchange {
        let request: ProviderRequest
        let version: HTTPVersion
        let keepAlive: Bool
        let isHead: Bool
    }

    private let maximumBodySize: Int
    /// Which of the server's listeners accepted the connection; every request records it.
    private let listener: Listener
    private let respond: @Sendable (ProviderRequest) -> ProviderReply
    /// How many requests the provider has received so far, for answers held until a later one.
    private let requestsReceived: @Sendable () -> Int
    private var receiving = Receiving.idle
    /// An answer is on its way (late, held or dribbled): later requests wait in `waiting`.
    private var answering = false
    private var waiting: Deque<Exchange> = []
    /// The channel asked to read while an answer was on its way; asked again once it is out.
    private var readDeferred = false
    /// `answered` is working through `waiting`; an answer finishing inside it only ends its turn.
    private var drainingWaiting = false
    /// Kept-alive answers are flushed with the others written in the same loop iteration.
    private lazy var flusher = EndOfTickFlusher.current
    /// The client has shut down its sending side: once the requests before that are answered, the
    /// connection closes.
    private var inputClosed = false
    private var deadlines: ReadDeadlines
    /// The decoder made a request part of the bytes read since the last read completed.
    private var partsInThisRead = false
    /// The one pending look at `deadlines`, and when it runs.
    private var deadlineCheck: Scheduled<Void>?
    private var deadlineCheckAt = NIODeadline.distantFuture

    init(
        maximumBodySize: Int,
        listener: Listener,
        deadlines: ReadDeadlines,
        requestsReceived: @escaping @Sendable () -> Int = { .max },
        respond: @escaping @Sendable (ProviderRequest) -> ProviderReply
    ) {
        self.maximumBodySize = maximumBodySize
        self.deadlines = deadlines
        self.listener = listener
        self.requestsReceived = requestsReceived
        self.respond = respond
    }

    // MARK: Receiving

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        partsInThisRead = true
        switch (unwrapInboundIn(data), receiving) {
        case (.head(let head), _):
            receiving = .request(head, nil)
            deadlines.headCompleted()
        case (.body(var chunk), .request(let head, let body)):
            guard (body?.readableBytes ?? 0) + chunk.readableBytes <= maximumBodySize else {
                receiving = .discarding
                refuse(413, "request body too large\n", version: head.version, context: context)
                return
            }
            guard var body else {
                receiving = .request(head, chunk)
                return
            }
            body.writeBuffer(&chunk)
            receiving = .request(head, body)
        case (.end, .request(let head, let body)):
            receiving = .idle
            deadlines.requestCompleted()
            let exchange = Exchange(
                request: ProviderRequest(
                    method: head.method.rawValue,
                    target: head.uri,
                    headers: head.headers.map { HeaderField($0.name, $0.value) },
                    body: body.map { String(buffer: $0) } ?? "",
                    listener: listener
                ),
                version: head.version,
                keepAlive: head.isKeepAlive,
                isHead: head.method == .HEAD
            )
            if answering {
                waiting.append(exchange)
            } else {
                answer(exchange, context: context)
            }
        case (.body, _), (.end, _):
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        deadlines.readCompleted(at: .now(), broughtParts: partsInThisRead)
        partsInThisRead = false
        armDeadlineCheck(context: context)
        context.fireChannelReadComplete()
    }

    /// Malformed HTTP (NIO's decoder throws `HTTPParserError`) gets 400 unless an answer is already
    /// on its way; either way the connection cannot be trusted further and is closed.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let parserError = error as? HTTPParserError, parserError == .invalidEOFState {
            // The client's FIN tore a request in two: nothing can complete it, so it is dropped;
            // the requests before it are still answered (`inputClosed`).
            receiving = .discarding
            return
        }
        guard error is HTTPParserError, !answering else {
            context.close(promise: nil)
            return
        }
        answering = true
        refuse(400, "", version: .http1_1, context: context)
    }

    /// The client shut down its sending side (the server allows half-closed connections).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event as? ChannelEvent == .inputClosed else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        inputClosed = true
        closeIfEverythingAnswered(context: context)
    }

    /// Reading waits while an answer is on its way, so a client pipelining requests behind a slow
    /// answer cannot pile up unbounded work.
    func read(context: ChannelHandlerContext) {
        if answering {
            readDeferred = true
        } else {
            context.read()
        }
    }

    // MARK: Deadlines

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { armDeadlineCheck(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        armDeadlineCheck(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadlineCheck()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadlineCheck()
    }

    /// Makes sure a check runs by the earliest deadline; one already due sooner is kept, so a
    /// read normally schedules nothing.
    private func armDeadlineCheck(context: ChannelHandlerContext) {
        let deadline = deadlines.next(answering: answering).deadline
        guard deadline < deadlineCheckAt else { return }
        deadlineCheck?.cancel()
        deadlineCheckAt = deadline
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadlineCheck = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.deadlineCheck = nil
            handler.deadlineCheckAt = .distantFuture
            guard context.channel.isActive else { return }
            handler.checkDeadline(context: context)
        }
    }

    private func cancelDeadlineCheck() {
        deadlineCheck?.cancel()
        deadlineCheck = nil
        deadlineCheckAt = .distantFuture
    }

    /// Reads since the check was armed may have moved the deadline on; if not, it has passed. A
    /// quiet connection is closed without a word; a client too slow over a request is told (408).
    private func checkDeadline(context: ChannelHandlerContext) {
        let (deadline, bound) = deadlines.next(answering: answering)
        guard deadline <= .now() else {
            armDeadlineCheck(context: context)
            return
        }
        switch bound {
        case .idle:
            context.close(promise: nil)
        case .head, .body:
            var version = HTTPVersion.http1_1
            if case .request(let head, _) = receiving { version = head.version }
            receiving = .discarding
            refuse(408, "request timed out\n", version: version, context: context)
        }
    }

    // MARK: Answering

    private func answer(_ exchange: Exchange, context: ChannelHandlerContext) {
        answering = true
        deliver(respond(exchange.request), for: exchange, context: context)
    }

    /// The answer is out: the waiting requests get their turns, then reading resumes. A loop, not
    /// recursion, answers a run of immediate replies, however many requests were pipelined.
    private func answered(context: ChannelHandlerContext) {
        answering = false
        guard !drainingWaiting else { return }
        drainingWaiting = true
        while !answering, let next = waiting.popFirst() {
            answer(next, context: context)
        }
        drainingWaiting = false
        closeIfEverythingAnswered(context: context)
        if !answering, readDeferred {
            readDeferred = false
            deadlines.readingResumed(at: .now())
            armDeadlineCheck(context: context)
            context.read()
        }
    }

    /// After the client's FIN, closes once every request that came before it is answered. Answers
    /// on a kept-alive connection wait for the end of the loop iteration to be flushed, so the
    /// close waits for an empty write behind them: it completes only once they are all out.
    private func closeIfEverythingAnswered(context: ChannelHandlerContext) {
        guard inputClosed, !answering, waiting.isEmpty else { return }
        answering = true  // the close is the last thing this connection does
        send(context.channel.allocator.buffer(capacity: 0), keepAlive: false, context: context)
    }

    /// Answers and closes; nothing after this is read or answered.
    private func refuse(_ status: Int, _ body: String, version: HTTPVersion, context: ChannelHandlerContext) {
        answering = true
        let response = ProviderResponse(status: status, body: body)
        send(
            HTTPResponseWriter.bytes(
                of: response,
                version: version,
                keepAlive: false,
                allocator: context.channel.allocator
            ),
            keepAlive: false,
            context: context
        )
    }

    private func deliver(_ reply: ProviderReply, for exchange: Exchange, context: ChannelHandlerContext) {
        switch reply.delivery {
        case .immediate:
            write(reply.response, for: exchange, context: context)
        case .delayed(let latency, _):
            later(latency, context) { handler, context in
                handler.write(reply.response, for: exchange, context: context)
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
            send(context.channel.allocator.buffer(string: bytes), keepAlive: false, context: context)
        case .dribble(let chunkSize, let interval):
            dribble(reply.response, for: exchange, chunkSize: max(chunkSize, 1), interval: interval, context: context)
        case .heldUntilRequest(let number):
            hold(reply.response, for: exchange, until: number, checksLeft: 2_000, context: context)
        }
    }

    private func write(_ response: ProviderResponse, for exchange: Exchange, context: ChannelHandlerContext) {
        let bytes = HTTPResponseWriter.bytes(
            of: response,
            version: exchange.version,
            keepAlive: exchange.keepAlive,
            omittingBody: exchange.isHead,
            allocator: context.channel.allocator
        )
        send(bytes, keepAlive: exchange.keepAlive, context: context)
    }

    /// The last bytes of an answer: the next request's turn on a kept-alive connection, otherwise the close.
    private func send(_ bytes: ByteBuffer, keepAlive: Bool, context: ChannelHandlerContext) {
        guard keepAlive else {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        // No promise: nothing waits for this write, and one per response is an allocation per request.
        context.write(wrapOutboundOut(bytes), promise: nil)
        flusher.flushAtEndOfTick(context)
        answered(context: context)
    }

    /// Writes the response once request no. `number` has arrived, looking every 5 ms.
    private func hold(
        _ response: ProviderResponse,
        for exchange: Exchange,
        until number: Int,
        checksLeft: Int,
        context: ChannelHandlerContext
    ) {
        guard requestsReceived() < number, checksLeft > 0 else {
            write(response, for: exchange, context: context)
            return
        }
        later(.milliseconds(5), context) { handler, context in
            handler.hold(response, for: exchange, until: number, checksLeft: checksLeft - 1, context: context)
        }
    }

    private func dribble(
        _ response: ProviderResponse,
        for exchange: Exchange,
        chunkSize: Int,
        interval: Duration,
        context: ChannelHandlerContext
    ) {
        var head = context.channel.allocator.buffer(capacity: 256)
        var body = context.channel.allocator.buffer(string: exchange.isHead ? "" : response.body)
        HTTPResponseWriter.writeHead(
            of: response,
            bodySize: response.body.utf8.count,
            version: exchange.version,
            keepAlive: exchange.keepAlive,
            into: &head
        )
        context.writeAndFlush(wrapOutboundOut(head), promise: nil)
        var chunks: [ByteBuffer] = []
        while body.readableBytes > 0, let chunk = body.readSlice(length: min(chunkSize, body.readableBytes)) {
            chunks.append(chunk)
        }
        sendChunks(ArraySlice(chunks), every: interval, keepAlive: exchange.keepAlive, context: context)
    }

    private func sendChunks(
        _ chunks: ArraySlice<ByteBuffer>,
        every interval: Duration,
        keepAlive: Bool,
        context: ChannelHandlerContext
    ) {
        guard let chunk = chunks.first else {
            send(context.channel.allocator.buffer(capacity: 0), keepAlive: keepAlive, context: context)
            return
        }
        later(interval, context) { handler, context in
            context.writeAndFlush(handler.wrapOutboundOut(chunk), promise: nil)
            handler.sendChunks(chunks.dropFirst(), every: interval, keepAlive: keepAlive, context: context)
        }
    }

    /// Runs `work` on this connection's event loop after `delay`, if the connection is still open.
    private func later(
        _ delay: Duration,
        _ context: ChannelHandlerContext,
        _ work: @escaping (HTTPExchangeHandler, ChannelHandlerContext) -> Void
    ) {
        // The work, like the handler and its context, lives on the event loop and runs there:
        // bound to it, none of them needs to be Sendable.
        let bound = NIOLoopBound((self, context, work), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: TimeAmount(delay)) {
            let (handler, context, work) = bound.value
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
