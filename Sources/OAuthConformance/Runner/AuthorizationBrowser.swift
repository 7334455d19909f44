import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// Plays the user's browser in an `authorize` step: opens the URL the client produced and reports
/// where the provider sent it back, without following the redirect into the client. In a native
/// app's sign-in it follows that one redirect, to the client's loopback listener only
/// (`LoopbackRedirect`).
struct AuthorizationBrowser: Sendable {
    /// Trusts the provider's test CA when the provider speaks HTTPS, as the user's browser would.
    let caCertificateFile: String?

    enum Visit: Sendable, Equatable {
        /// The provider redirected to this URL.
        case redirected(to: String)
        /// The provider did not redirect; the user is stuck on a page.
        case stopped(status: Int, body: String)
    }

    /// Why a native app's sign-in could not hand the redirect to the client's listener.
    struct NotHandedOver: Error, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
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

    /// A native app's sign-in: opens `url`, and follows the provider's redirect to the client's
    /// loopback listener, each visit bounded like `open`'s. The listener's answer, described
    /// (its status and the start of its page), or why the redirect was not handed over.
    func followToLoopback(from url: String) async -> Result<String, NotHandedOver> {
        let location: String
        do {
            switch try await open(url) {
            case .redirected(let redirect): location = redirect
            case .stopped(let status, let body):
                return .failure(
                    NotHandedOver(
                        "the provider answered the URL the client asked to open with \(status) and no redirect: \(body.prefix(200))"
                    )
                )
            }
        } catch {
            return .failure(
                NotHandedOver("the browser could not open the URL the client asked to open, \(url): \(error)")
            )
        }
        let redirect: LoopbackRedirect
        switch LoopbackRedirect.checking(location) {
        case .success(let checked): redirect = checked
        case .failure(let refused): return .failure(NotHandedOver(refused.message))
        }
        do {
            switch try await open(redirect.url) {
            case .redirected(let next):
                // The listener's own redirect (to a page of the app's) is its answer; not followed.
                return .success("a redirect to \(next.prefix(200))")
            case .stopped(let status, let body):
                let page = body.split(whereSeparator: \.isNewline).joined(separator: " ").prefix(120)
                return .success("\(status)" + (page.isEmpty ? "" : ": \(page)"))
            }
        } catch {
            return .failure(
                NotHandedOver("the browser could not reach the client's loopback listener at \(redirect.url): \(error)")
            )
        }
    }
}
