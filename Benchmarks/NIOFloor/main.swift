// The floor under the provider's figures in Benchmarks/provider-vs-nginx.sh: SwiftNIO with the
// provider's own pipeline (idle timeout, NIO's HTTP/1.1 request decoder, one buffer written per
// answer and flushed at the end of the loop's iteration by the provider's `EndOfTickFlusher`)
// answering every request with fixed bytes, and doing nothing else. What it reaches is what any
// NIO-based provider could reach on the machine; the provider's distance from it is the cost of
// its own work (routing, client authentication, the ledger, the journal, the log).
//
//   nio-floor PORT BODY     (binds 127.0.0.1; answers every request 200 with BODY as JSON)
import MockProvider
import NIOCore
import NIOHTTP1
import NIOPosix

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]) else {
    print("usage: nio-floor PORT BODY")
    exit(2)
}
let body = arguments[2]
// The header fields the provider sends with a token response.
let answer =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nPragma: no-cache\r\n"
    + "Content-Length: \(body.utf8.count)\r\nConnection: keep-alive\r\n\r\n\(body)"

final class FixedAnswerHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        context.write(wrapOutboundOut(context.channel.allocator.buffer(string: answer)), promise: nil)
        EndOfTickFlusher.current.flushAtEndOfTick(context)
    }
}

let server = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .serverChannelOption(.backlog, value: 256)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(IdleStateHandler(readTimeout: .seconds(30)))
            try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
            try pipeline.addHandler(FixedAnswerHandler())
        }
    }
    .bind(host: "127.0.0.1", port: port)
    .wait()
try server.closeFuture.wait()
