import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// Plays the user's browser in an `authorize` step: opens the URL the client produced and reports
/// where the provider sent it back, without following the redirect into the client.
struct AuthorizationBrowser: Sendable {
    /// Trusts the provider's test CA when the provider speaks HTTPS, as the user's browser would.
    let caCertificateFile: String?

    enum Visit: Sendable, Equatable {
        /// The provider redirected to this URL.
        case redirected(to: String)
        /// The provider did not redirect; the user is stuck on a page.
        case stopped(status: Int, body: String)
    }

    func open(_ url: String) async throws -> Visit {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
        // A refused TLS handshake is final; retrying it only delays the verdict by the connect timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        if let caCertificateFile {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(caCertificateFile)
            configuration.tlsConfiguration = tls
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let visit = try await Self.visit(url, with: http)
            try? await http.shutdown()
            return visit
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    private static func visit(_ url: String, with http: HTTPClient) async throws -> Visit {
        let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 64 * 1024)
        if (300..<400).contains(Int(response.status.code)), let location = response.headers.first(name: "Location") {
            return .redirected(to: location)
        }
        return .stopped(status: Int(response.status.code), body: String(buffer: body))
    }
}
