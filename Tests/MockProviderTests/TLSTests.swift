import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Testing

@Suite("TLS: real handshakes against each certificate variant")
struct TLSTests {
    /// An HTTPS request through AsyncHTTPClient that trusts only the test CA.
    func requestTrustingTestCA(_ server: ProviderServer) async throws -> Int {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(try #require(server.caCertificateFile))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = .disallow
        // AsyncHTTPClient retries a failed handshake until the connect timeout; keep it short.
        configuration.timeout = .init(connect: .seconds(1), read: .seconds(5))
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            var request = HTTPClientRequest(url: server.resourceURL)
            request.headers.add(name: "Authorization", value: "Bearer secret-token")
            let response = try await http.execute(request, timeout: .seconds(5))
            try await http.shutdown()
            return Int(response.status.code)
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    func serving<T>(_ variant: CertificateVariant, _ body: (ProviderServer) async throws -> T) async throws -> T {
        try await serving(ProviderSettings(tls: variant), body)
    }

    func serving<T>(_ settings: ProviderSettings, _ body: (ProviderServer) async throws -> T) async throws -> T {
        let server = try await ProviderServer.start(MockProvider(settings: settings))
        do {
            let result = try await body(server)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    @Test("a certificate from the test CA for 127.0.0.1 is accepted and serves HTTPS")
    func validCertificate() async throws {
        try await serving(.valid) { server throws in
            #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
            let status = try await requestTrustingTestCA(server)
            #expect(status == 401)
            #expect(server.provider.journal.entries.count == 1)
        }
    }

    @Test(
        "self-signed, expired and wrong-host certificates fail the handshake; no request arrives",
        arguments: [CertificateVariant.selfSigned, .expired, .wrongHost]
    )
    func refusedCertificates(_ variant: CertificateVariant) async throws {
        try await serving(variant) { server throws in
            do {
                _ = try await requestTrustingTestCA(server)
                Issue.record("the \(variant) certificate was accepted")
            } catch {
                // Chain and validity failures are NIOSSLError; a host name mismatch is NIOSSLExtraError.
                #expect(error is NIOSSLError || error is NIOSSLExtraError, "\(error)")
            }
            #expect(server.provider.journal.entries.isEmpty)
        }
    }

    @Test("a redirect from the HTTPS origin to the other origin goes from https to http")
    func httpsToHTTPRedirect() async throws {
        let settings = ProviderSettings(
            rules: [
                ProviderRule(
                    match: RequestMatcher(endpoint: .resource),
                    action: .redirect(Redirect(status: 302, to: .otherOrigin))
                )
            ],
            tls: .valid
        )
        try await serving(settings) { server throws in
            #expect(server.baseURL.hasPrefix("https://"))
            #expect(server.otherOriginURL.hasPrefix("http://127.0.0.1:"))
            let status = try await requestTrustingTestCA(server)
            #expect(status == 302)
            #expect(
                server.provider.journal.entries.first?.response.header("Location") == server.otherOriginURL
                    + "/resource"
            )
        }
    }

    @Test("a pinning client accepts the pinned key and refuses a CA-valid certificate with another key")
    func pinning() async throws {
        let pinnedOK = try await serving(.valid) { server throws in
            try await TLSProbe.handshake(
                port: try #require(server.port),
                pin: try #require(server.pki?.pinnedPublicKeySHA256)
            )
        }
        #expect(pinnedOK)
        let otherKeyOK = try await serving(.otherKey) { server throws in
            try await TLSProbe.handshake(
                port: try #require(server.port),
                pin: try #require(server.pki?.pinnedPublicKeySHA256)
            )
        }
        #expect(!otherKeyOK)
    }
}

/// A TLS client that trusts nothing but the pinned public key, as a pinning library does.
enum TLSProbe {
    static func handshake(port: Int, pin: String) async throws -> Bool {
        let context = try NIOSSLContext(configuration: .makeClientConfiguration())
        let group = MultiThreadedEventLoopGroup.singleton
        let outcome = group.next().makePromise(of: Bool.self)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try NIOSSLClientHandler(context: context, serverHostname: "localhost") {
                        certificates,
                        verdict in
                        let presented = (try? certificates.first?.extractPublicKey().toSPKIBytes()).map {
                            TestPKI.publicKeySHA256($0)
                        }
                        verdict.succeed(presented == pin ? .certificateVerified : .failed)
                    }
                    try channel.pipeline.syncOperations.addHandler(handler)
                    try channel.pipeline.syncOperations.addHandler(HandshakeObserver(outcome: outcome))
                }
            }
            .connect(host: "127.0.0.1", port: port)
            .get()
        let completed = try await outcome.futureResult.get()
        try? await channel.close()
        return completed
    }

    final class HandshakeObserver: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let outcome: EventLoopPromise<Bool>

        init(outcome: EventLoopPromise<Bool>) { self.outcome = outcome }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .handshakeCompleted = event as? TLSUserEvent { outcome.succeed(true) }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            outcome.succeed(false)
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            outcome.succeed(false)
            context.fireChannelInactive()
        }
    }
}
