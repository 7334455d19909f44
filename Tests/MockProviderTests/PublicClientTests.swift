import Foundation
import MockProvider
import Testing

/// A public client (RFC 6749 §2.1, registered with RFC 7591's `none`): it identifies itself by
/// `client_id` alone wherever a confidential client authenticates, must use PKCE, and is refused,
/// as Entra ID refuses it, when it presents credentials it cannot have.
@Suite("A public client: client_id alone, PKCE required, credentials refused")
struct PublicClientTests {
    static var settings: ProviderSettings {
        var settings = ProviderSettings()
        settings.clientAuthentication = .publicClient
        settings.pushedAuthorization = PushedAuthorizationPolicy(required: false)
        return settings
    }

    /// Credentials a confidential client would present, which a public client has none of.
    enum Presented: String, CaseIterable, CustomTestStringConvertible {
        case secretInBody = "client_secret in the body"
        case basic = "HTTP Basic"
        case assertion = "a client_assertion"

        var testDescription: String { rawValue }

        var headers: [(String, String)] {
            guard self == .basic else { return [] }
            return [
                ("Authorization", "Basic " + Data("conformance-client:conformance-secret".utf8).base64EncodedString())
            ]
        }

        var fields: [(String, String)] {
            switch self {
            case .secretInBody: [("client_secret", "conformance-secret")]
            case .basic: []
            case .assertion:
                [
                    ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                    ("client_assertion", "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"),
                ]
            }
        }
    }

    /// The endpoints where a confidential client authenticates, with a form each would serve.
    static let endpoints: [(Endpoint, [(String, String)])] = [
        (.token, [("grant_type", "password"), ("username", "alice"), ("password", "wonderland")]),
        (.deviceAuthorization, []),
        (.pushedAuthorization, [("response_type", "code"), ("redirect_uri", "http://127.0.0.1/callback")]),
        (.revoke, [("token", "rt-1")]),
    ]

    static func post(
        _ provider: RunningProvider,
        _ endpoint: Endpoint,
        _ form: [(String, String)],
        headers: [(String, String)] = []
    ) async throws -> RunningProvider.Answer {
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.1)" }
            .joined(separator: "&")
        return try await provider.send(
            "POST",
            path: endpoint.path,
            headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers,
            body: body
        )
    }

    @Test(
        "client_id alone is served at the token, device authorization, PAR and revocation endpoints",
        arguments: Self.endpoints.map(\.0)
    )
    func identifiedByClientID(_ endpoint: Endpoint) async throws {
        try await RunningProvider.with(Self.settings) { provider in
            let form = try #require(Self.endpoints.first { $0.0 == endpoint }?.1)
            let answer = try await Self.post(provider, endpoint, form + [("client_id", "conformance-client")])
            #expect((200...201).contains(answer.status), "\(answer.body)")
            let anonymous = try await Self.post(provider, endpoint, form)
            #expect(anonymous.status == 401)
            #expect(anonymous.json?["error"] == .string("invalid_client"))
            #expect(anonymous.json?["error_description"]?.stringValue?.contains("client_id is missing") == true)
            let stranger = try await Self.post(provider, endpoint, form + [("client_id", "someone-else")])
            #expect(stranger.json?["error"] == .string("invalid_client"))
        }
    }

    @Test(
        "a public client presenting a secret, HTTP Basic or an assertion is refused invalid_client, told it is registered as public",
        arguments: Self.endpoints.map(\.0),
        Presented.allCases
    )
    func credentialsRefused(_ endpoint: Endpoint, _ presented: Presented) async throws {
        try await RunningProvider.with(Self.settings) { provider in
            let form = try #require(Self.endpoints.first { $0.0 == endpoint }?.1)
            let answer = try await Self.post(
                provider,
                endpoint,
                form + [("client_id", "conformance-client")] + presented.fields,
                headers: presented.headers
            )
            #expect(answer.status == 401, "\(answer.body)")
            #expect(answer.json?["error"] == .string("invalid_client"))
            let description = answer.json?["error_description"]?.stringValue ?? ""
            #expect(description.contains("registered as a public client"), "\(description)")
            // RFC 6749 §5.2: a client that tried HTTP Basic is answered with a Basic challenge.
            #expect((answer.headers["WWW-Authenticate"].first != nil) == (presented == .basic))
            #expect(provider.provider.issuedTokens.isEmpty)
        }
    }

    @Test("an authorization request without code_challenge is redirected back with invalid_request; with one, a code")
    func pkceRequired() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            var query =
                "response_type=code&client_id=conformance-client&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&state=s-1"
            let refused = try await provider.send("GET", path: "/authorize?" + query)
            #expect(refused.status == 302)
            let location = try #require(refused.headers["Location"].first.flatMap(URLComponents.init(string:)))
            let parameters = Dictionary(
                (location.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                uniquingKeysWith: { first, _ in first }
            )
            #expect(parameters["error"] == "invalid_request")
            #expect(parameters["error_description"]?.contains("PKCE") == true)
            #expect(parameters["state"] == "s-1" && parameters["iss"] == provider.server.baseURL)
            #expect(parameters["code"] == nil)

            query +=
                "&code_challenge=" + PKCEFixture.s256(RegisteredClient.codeVerifier) + "&code_challenge_method=S256"
            let granted = try await provider.send("GET", path: "/authorize?" + query)
            #expect(granted.headers["Location"].first?.contains("code=") == true)
        }
    }

    @Test("a pushed request without code_challenge is refused at the authorization endpoint too")
    func pushedRequestNeedsPKCE() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            let pushed = try await Self.post(
                provider,
                .pushedAuthorization,
                [
                    ("response_type", "code"), ("client_id", "conformance-client"),
                    ("redirect_uri", "http://127.0.0.1/callback"), ("state", "s-1"),
                ]
            )
            let uri = try #require(pushed.json?["request_uri"]?.stringValue, "\(pushed.body)")
            let answer = try await provider.send(
                "GET",
                path: "/authorize?client_id=conformance-client&request_uri="
                    + (uri.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? uri)
            )
            #expect(answer.headers["Location"].first?.contains("error=invalid_request") == true)
        }
    }

    @Test(
        "revoking with client_id alone revokes; introspection, for authenticated callers only, refuses a public client"
    )
    func revocationAndIntrospection() async throws {
        try await RunningProvider.with(Self.settings) { provider in
            let client = RegisteredClient(provider: provider)
            let tokens = try await client.tokens(by: .password, scope: "profile")
            let accessToken = try #require(tokens.json?["access_token"]?.stringValue)
            let revoked = try await client.post(Endpoint.revoke.path, [("token", accessToken)])
            #expect(revoked.status == 200)
            #expect(try await provider.resource(bearer: accessToken).status == 401)
            let introspected = try await client.post(Endpoint.introspect.path, [("token", accessToken)])
            #expect(introspected.status == 401)
            #expect(introspected.json?["error"] == .string("invalid_client"))
        }
    }
}
