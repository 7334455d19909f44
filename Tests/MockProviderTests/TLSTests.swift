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
        // Generous: a loaded CI machine must not turn a slow handshake into a failure.
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(10))
        configuration.connectionPool.retryConnectionEstablishment = false
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

    // One direct handshake rather than an HTTP request: an HTTP client that retries a failed handshake
    // until its connect deadline may report the deadline instead of the TLS error, a race under load.
    @Test(
        "self-signed, expired and wrong-host certificates fail the handshake; no request arrives",
        arguments: [CertificateVariant.selfSigned, .expired, .wrongHost]
    )
    func refusedCertificates(_ variant: CertificateVariant) async throws {
        try await serving(variant) { server throws in
            let outcome = try await TLSProbe.handshake(
                port: try #require(server.port),
                trusting: .certificateAuthority(file: try #require(server.caCertificateFile))
            )
            switch outcome {
            case .success:
                Issue.record("the \(variant) certificate was accepted")
            case .failure(let error):
                // Chain and validity failures are NIOSSLError; a host name mismatch is NIOSSLExtraError.
                #expect(error is NIOSSLError || error is NIOSSLExtraError, "\(error)")
            }
            #expect(server.provider.journal.entries.isEmpty)
        }
    }

    @Test("the probe completes a handshake with the test CA's certificate for 127.0.0.1")
    func probeAcceptsValidCertificate() async throws {
        try await serving(.valid) { server throws in
            let outcome = try await TLSProbe.handshake(
                port: try #require(server.port),
                trusting: .certificateAuthority(file: try #require(server.caCertificateFile))
            )
            if case .failure(let error) = outcome { Issue.record("refused: \(error)") }
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
                trusting: .pinnedKey(sha256: try #require(server.pki?.pinnedPublicKeySHA256))
            )
        }
        #expect((try? pinnedOK.get()) != nil)
        let otherKeyOK = try await serving(.otherKey) { server throws in
            try await TLSProbe.handshake(
                port: try #require(server.port),
                trusting: .pinnedKey(sha256: try #require(server.pki?.pinnedPublicKeySHA256))
            )
        }
        #expect((try? otherKeyOK.get()) == nil)
    }
}

/// One TLS handshake and nothing after it: trusting the test CA (hostname checked against the peer's
/// IP address, as a client connecting to 127.0.0.1 does), or only a pinned public key, as a pinning
/// library does.
enum TLSProbe {
    enum Trust {
        case certificateAuthority(file: String)
        case pinnedKey(sha256: String)
    }

    static func handshake(port: Int, trusting trust: Trust) async throws -> Result<Void, any Error> {
        var configuration = TLSConfiguration.makeClientConfiguration()
        var customVerification: (@Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResult>) -> Void)?
        switch trust {
        case .certificateAuthority(let file):
            configuration.trustRoots = .file(file)
        case .pinnedKey(let pin):
            customVerification = { certificates, verdict in
                let presented = (try? certificates.first?.extractPublicKey().toSPKIBytes()).map {
                    TestPKI.publicKeySHA256($0)
                }
                verdict.succeed(presented == pin ? .certificateVerified : .failed)
            }
        }
        let context = try NIOSSLContext(configuration: configuration)
        let group = MultiThreadedEventLoopGroup.singleton
        let outcome = group.next().makePromise(of: Result<Void, any Error>.self)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { [customVerification] channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler =
                        if let customVerification {
                            try NIOSSLClientHandler(
                                context: context,
                                serverHostname: "localhost",
                                customVerificationCallback: customVerification
                            )
                        } else {
                            try NIOSSLClientHandler(context: context, serverHostname: nil)
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

    struct ClosedBeforeHandshake: Error {}

    final class HandshakeObserver: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let outcome: EventLoopPromise<Result<Void, any Error>>

        init(outcome: EventLoopPromise<Result<Void, any Error>>) { self.outcome = outcome }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .handshakeCompleted = event as? TLSUserEvent { outcome.succeed(.success(())) }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            outcome.succeed(.failure(error))
            context.close(promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            outcome.succeed(.failure(ClosedBeforeHandshake()))
            context.fireChannelInactive()
        }
    }
}
