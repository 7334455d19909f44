import Foundation
import MockProvider
import Testing

/// Pushed authorization requests (RFC 9126) at the provider, observed on the wire.
@Suite("Pushed authorization requests: one-time request_uris, and required when the provider says so")
struct PushedAuthorizationTests {
    static var settings: ProviderSettings {
        var settings = ProviderSettings()
        settings.pushedAuthorization = PushedAuthorizationPolicy(required: true, requestURILifetime: .seconds(60))
        return settings
    }

    static let pushedForm = [
        ("response_type", "code"), ("client_id", "conformance-client"),
        ("redirect_uri", "http://127.0.0.1/callback"), ("state", "s-1"),
    ]

    func push(
        _ provider: RunningProvider,
        _ form: [(String, String)] = pushedForm,
        authenticated: Bool = true
    )
        async throws -> RunningProvider.Answer
    {
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if authenticated {
            headers.append(
                ("Authorization", "Basic " + Data("conformance-client:conformance-secret".utf8).base64EncodedString())
            )
        }
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.1)" }
            .joined(separator: "&")
        return try await provider.send("POST", path: "/par", headers: headers, body: body)
    }

    func authorize(_ provider: RunningProvider, requestURI: String?) async throws -> RunningProvider.Answer {
        var query = "client_id=conformance-client"
        if let requestURI {
            query += "&request_uri=" + (requestURI.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        } else {
            query += "&response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&state=s-1"
        }
        return try await provider.send("GET", path: "/authorize?" + query)
    }

    @Test("a push gives a request_uri the authorization endpoint takes once, with the pushed parameters")
    func oneTimeRequestURI() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            let pushed = try await push(provider)
            #expect(pushed.status == 201)
            #expect(pushed.json?["expires_in"] == .integer(60))
            let uri = try #require(pushed.json?["request_uri"]?.stringValue)
            #expect(uri.hasPrefix("urn:ietf:params:oauth:request_uri:"))
            let first = try await authorize(provider, requestURI: uri)
            #expect(first.status == 302)
            let location = try #require(first.headers["Location"].first)
            #expect(location.hasPrefix("http://127.0.0.1/callback?code=") && location.contains("state=s-1"))
            let again = try await authorize(provider, requestURI: uri)
            #expect(again.status == 400 && again.body.contains("one use"))
        }
    }

    @Test("an expired request_uri, a request not pushed, a push without authentication or with request_uri are refused")
    func refusals() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            let uri = try #require(try await push(provider).json?["request_uri"]?.stringValue)
            provider.provider.clock.advance(by: .seconds(60))
            #expect(try await authorize(provider, requestURI: uri).body.contains("expired"))
            let plain = try await authorize(provider, requestURI: nil)
            #expect(plain.status == 400 && plain.body.contains("requires pushed authorization requests"))
            #expect(try await push(provider, authenticated: false).status == 401)
            let nested = try await push(provider, Self.pushedForm + [("request_uri", "urn:x")])
            #expect(nested.json?["error"]?.stringValue == "invalid_request")
            let metadata = try await provider.send("GET", path: "/.well-known/oauth-authorization-server")
            #expect(metadata.json?["require_pushed_authorization_requests"] == .bool(true))
            #expect(
                metadata.json?["pushed_authorization_request_endpoint"]?.stringValue == provider.server.baseURL + "/par"
            )
        }
    }
}
