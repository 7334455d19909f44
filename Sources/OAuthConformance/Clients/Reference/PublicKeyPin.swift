import Foundation
import MockProvider
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// Public-key pinning, as Alamofire's `PublicKeysTrustEvaluator` does it: a server is trusted only
/// when its certificate carries the pinned key (base64 SHA-256 of the DER SubjectPublicKeyInfo),
/// even when a CA the client trusts issued another one.
///
/// AsyncHTTPClient offers no hook into certificate verification, so the check is a TLS handshake
/// of its own to the origin, with NIOSSL's verification callback, before the first credential is
/// sent there; an origin that passed is not asked again for the life of the client. The callback
/// takes the place of BoringSSL's chain check on that handshake; the requests that follow,
/// through AsyncHTTPClient, verify chain and host name as usual. The gap this leaves (a server
/// that changes certificate between the check and a later connection) is the price of keeping
/// AsyncHTTPClient; a client built on NIO directly would check every handshake.
struct PublicKeyPin: Sendable {
    let pinnedSHA256: String

    /// Why an origin's certificate was refused.
    struct Mismatch: Error, CustomStringConvertible {
        let origin: String
        let presented: String?
        var description: String {
            "the certificate of \(origin) carries public key sha256/\(presented ?? "unreadable"), not the pinned one"
        }
    }

    /// Completes when the origin's certificate carries the pinned key; throws `Mismatch`, or the
    /// TLS error that stopped the handshake first.
    func verify(host: String, port: Int) async throws {
        // The callback below decides alone, so no trust store is read: the machine's default one
        // may not exist (a minimal container without ca-certificates), and loading it would fail
        // the handshake before the pin is looked at.
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.trustRoots = .certificates([])
        let context = try NIOSSLContext(configuration: configuration)
        let group = MultiThreadedEventLoopGroup.singleton
        let handshake = group.next().makePromise(of: Void.self)
        let pinned = pinnedSHA256
        let presentedKey = Mutex<String?>(nil)
        let channel = try await ClientBootstrap(group: group)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(context: context, serverHostname: Self.serverName(host)) {
                        certificates,
                        verdict in
                        let presented = (try? certificates.first?.extractPublicKey().toSPKIBytes()).map(
                            TestPKI.publicKeySHA256
                        )
                        presentedKey.withLock { $0 = presented }
                        verdict.succeed(presented == pinned ? .certificateVerified : .failed)
                    }
                    try channel.pipeline.syncOperations.addHandler(handler)
                    try channel.pipeline.syncOperations.addHandler(HandshakeOutcome(promise: handshake))
                }
            }
            .connect(host: host, port: port)
            .get()
        defer { channel.close(promise: nil) }
        do {
            try await handshake.futureResult.get()
        } catch {
            let presented = presentedKey.withLock { $0 }
            if let presented, presented != pinned { throw Mismatch(origin: "\(host):\(port)", presented: presented) }
            throw error
        }
    }

    /// SNI carries host names, never IP addresses (RFC 6066 §3).
    private static func serverName(_ host: String) -> String? {
        host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : host
    }

    /// Fulfils the promise when the handshake completes, fails it on the first error or a close.
    private final class HandshakeOutcome: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let promise: EventLoopPromise<Void>

        init(promise: EventLoopPromise<Void>) { self.promise = promise }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .handshakeCompleted = event as? TLSUserEvent { promise.succeed() }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(ChannelError.inputClosed)
            context.fireChannelInactive()
        }
    }
}
