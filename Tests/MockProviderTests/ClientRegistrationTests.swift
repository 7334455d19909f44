import Foundation
import MockProvider
import Testing

/// How an MCP client gets its client ID at the provider (MCP authorization 2026-07-28, "Client
/// Registration"), observed on the wire: Dynamic Client Registration (RFC 7591) and its refusals,
/// Client ID Metadata Document URLs, and a provider that holds no registration made beforehand.
@Suite("Client registration: /register, Client ID Metadata Document URLs, no pre-registration")
struct ClientRegistrationTests {
    static let notPreRegistered: ProviderSettings = {
        var settings = ProviderSettings()
        settings.registration = ClientRegistrationPolicy(
            preRegistered: false,
            dynamicRegistration: true,
            clientIDMetadataDocuments: true
        )
        return settings
    }()

    static func register(_ provider: RunningProvider, _ metadata: String) async throws -> RunningProvider.Answer {
        try await provider.send(
            "POST",
            path: "/register",
            headers: [("Content-Type", "application/json")],
            body: metadata
        )
    }

    @Test("the metadata advertises registration and metadata documents only where the settings offer them")
    func metadata() async throws {
        try await RunningProvider.with { provider in
            let document = try #require(
                try await provider.send("GET", path: "/.well-known/oauth-authorization-server").json
            )
            #expect(document["registration_endpoint"] == nil)
            #expect(document["client_id_metadata_document_supported"] == nil)
            #expect(try await Self.register(provider, "{}").status == 404)
        }
        try await RunningProvider.with(Self.notPreRegistered) { provider in
            let document = try #require(
                try await provider.send("GET", path: "/.well-known/oauth-authorization-server").json
            )
            #expect(document["registration_endpoint"]?.stringValue == provider.server.baseURL + "/register")
            #expect(document["client_id_metadata_document_supported"] == .bool(true))
        }
    }

    @Test("a registration is answered 201 with a fresh client_id, a secret for a secret-based method, and the metadata")
    func registered() async throws {
        try await RunningProvider.with(Self.notPreRegistered) { provider in
            let publicClient = try await Self.register(
                provider,
                #"{"redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "none", "application_type": "native", "grant_types": ["authorization_code"]}"#
            )
            #expect(publicClient.status == 201)
            let answer = try #require(publicClient.json)
            #expect(answer["client_id"]?.stringValue == "registered-client-1")
            #expect(answer["client_secret"] == nil)
            #expect(answer["application_type"]?.stringValue == "native")
            #expect(answer["token_endpoint_auth_method"]?.stringValue == "none")
            #expect(answer["client_id_issued_at"] != nil)

            // RFC 7591 §2: without a method, client_secret_basic, which needs a secret (§3.2.1).
            let confidential = try #require(
                try await Self.register(provider, #"{"redirect_uris": ["https://app.example/cb"]}"#).json
            )
            #expect(confidential["client_id"]?.stringValue == "registered-client-2")
            #expect(confidential["client_secret"]?.stringValue?.isEmpty == false)
            #expect(confidential["client_secret_expires_at"] == .integer(0))
            #expect(confidential["token_endpoint_auth_method"]?.stringValue == "client_secret_basic")
        }
    }

    @Test("with a substituted method, a client that asked for none is registered with a secret, and told so")
    func substituted() async throws {
        var settings = Self.notPreRegistered
        settings.registration.substitutedAuthMethod = "client_secret_basic"
        try await RunningProvider.with(settings) { provider in
            let answer = try #require(
                try await Self.register(
                    provider,
                    #"{"redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "none"}"#
                ).json
            )
            #expect(answer["token_endpoint_auth_method"]?.stringValue == "client_secret_basic")
            let secret = try #require(answer["client_secret"]?.stringValue)
            let password = [("grant_type", "password"), ("username", "alice"), ("password", "wonderland")]
            #expect(
                try await provider.token(password, basic: ClientCredentials(id: "registered-client-1", secret: secret))
                    .status == 200
            )
            #expect(
                try await provider.token(password + [("client_id", "registered-client-1")], basic: nil).status == 401
            )
        }
    }

    @Test(
        "a registration without redirect URIs, with an http one off loopback, or without a JSON object is refused 400 (RFC 7591 §3.2.2)"
    )
    func refused() async throws {
        try await RunningProvider.with(Self.notPreRegistered) { provider in
            for (body, code) in [
                (#"{"token_endpoint_auth_method": "none"}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["http://app.example/cb"]}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["http://127.0.0.1/cb#frag"]}"#, "invalid_redirect_uri"),
                (#"["http://127.0.0.1/cb"]"#, "invalid_client_metadata"),
                (
                    #"{"redirect_uris": ["http://127.0.0.1/cb"], "token_endpoint_auth_method": "tls_client_auth"}"#,
                    "invalid_client_metadata"
                ),
            ] {
                let answer = try await Self.register(provider, body)
                #expect(answer.status == 400, "\(body)")
                #expect(answer.json?["error"]?.stringValue == code, "\(body)")
            }
            #expect(try await provider.send("GET", path: "/register").status == 405)
        }
    }

    @Test(
        "a registered client, and a metadata document URL, are known at /authorize; the usual id is not without a pre-registration"
    )
    func authorize() async throws {
        try await RunningProvider.with(Self.notPreRegistered) { provider in
            _ = try await Self.register(
                provider,
                #"{"redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "none"}"#
            )
            func authorize(_ clientID: String) async throws -> Int {
                let query = [
                    "response_type=code", "client_id=\(clientID)", "redirect_uri=http://127.0.0.1:5000/callback",
                    "code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method=S256",
                ]
                return try await provider.send("GET", path: "/authorize?" + query.joined(separator: "&")).status
            }
            #expect(try await authorize("registered-client-1") == 302)
            #expect(try await authorize("https%3A%2F%2Fclient.example%2Fmetadata.json") == 302)
            #expect(try await authorize("https%3A%2F%2Fclient.example") == 400)
            #expect(try await authorize("http%3A%2F%2Fclient.example%2Fmetadata.json") == 400)
            #expect(try await authorize("conformance-client") == 400)
            #expect(try await authorize("registered-client-9") == 400)
        }
    }

    @Test(
        "at the token endpoint a registered client authenticates as it registered, and the usual id is unknown without a pre-registration"
    )
    func token() async throws {
        try await RunningProvider.with(Self.notPreRegistered) { provider in
            let registered = try #require(
                try await Self.register(provider, #"{"redirect_uris": ["http://127.0.0.1/callback"]}"#).json
            )
            let client = ClientCredentials(
                id: try #require(registered["client_id"]?.stringValue),
                secret: try #require(registered["client_secret"]?.stringValue)
            )
            let password = [("grant_type", "password"), ("username", "alice"), ("password", "wonderland")]
            #expect(try await provider.token(password, basic: client).status == 200)
            #expect(
                try await provider.token(password, basic: ClientCredentials(id: client.id, secret: "wrong")).status
                    == 401
            )
            #expect(try await provider.token(password, basic: provider.settings.client).status == 401)
            let documentClient = password + [("client_id", "https://client.example/metadata.json")]
            #expect(try await provider.token(documentClient, basic: nil).status == 200)
        }
    }
}
