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

    static func offering(_ methods: [String]) -> ProviderSettings {
        var settings = ProviderSettings()
        settings.registration = ClientRegistrationPolicy(
            preRegistered: false,
            dynamicRegistration: true,
            offeredAuthMethods: methods
        )
        return settings
    }

    @Test(
        "token_endpoint_auth_methods_supported lists the offered methods alone, else every way a known client is let in"
    )
    func offeredMethodsListed() async throws {
        func listed(_ settings: ProviderSettings) async throws -> [String] {
            try await RunningProvider.with(settings) { provider in
                let document = try #require(
                    try await provider.send("GET", path: "/.well-known/oauth-authorization-server").json
                )
                guard case .array(let methods)? = document["token_endpoint_auth_methods_supported"] else { return [] }
                return methods.compactMap(\.stringValue)
            }
        }
        #expect(try await listed(Self.offering(["client_secret_post"])) == ["client_secret_post"])
        #expect(try await listed(Self.offering(["none"])) == ["none"])
        #expect(try await listed(Self.notPreRegistered) == ["none", "client_secret_basic", "client_secret_post"])
        #expect(try await listed(ProviderSettings()) == ["client_secret_basic", "client_secret_post"])
        var metadataDocumentsOnly = ProviderSettings()
        metadataDocumentsOnly.registration = ClientRegistrationPolicy(
            preRegistered: false,
            clientIDMetadataDocuments: true
        )
        #expect(try await listed(metadataDocumentsOnly) == ["none"])
    }

    @Test(
        "a registration asking for a method the server does not offer, or omitting it where client_secret_basic is not offered, is refused invalid_client_metadata"
    )
    func unofferedMethodRefused() async throws {
        try await RunningProvider.with(Self.offering(["client_secret_post"])) { provider in
            for body in [
                #"{"redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "none"}"#,
                #"{"redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "client_secret_basic"}"#,
                #"{"redirect_uris": ["http://127.0.0.1/callback"]}"#,
            ] {
                let answer = try await Self.register(provider, body)
                #expect(answer.status == 400, "\(body)")
                #expect(answer.json?["error"]?.stringValue == "invalid_client_metadata", "\(body)")
            }
            let offered = try #require(
                try await Self.register(
                    provider,
                    #"{"redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "client_secret_post"}"#
                ).json
            )
            #expect(offered["client_id"]?.stringValue == "registered-client-1")
            #expect(offered["token_endpoint_auth_method"]?.stringValue == "client_secret_post")
        }
        try await RunningProvider.with(Self.offering(["client_secret_basic"])) { provider in
            // RFC 7591 §2: a registration without the member asks for client_secret_basic.
            let omitted = try await Self.register(provider, #"{"redirect_uris": ["http://127.0.0.1/callback"]}"#)
            #expect(omitted.status == 201)
        }
    }

    @Test(
        "a registered client is let in only the way it registered: the secret by HTTP Basic or in the form, never the other way"
    )
    func registeredMethodHeld() async throws {
        try await RunningProvider.with(Self.notPreRegistered) { provider in
            func registered(_ method: String) async throws -> ClientCredentials {
                let answer = try #require(
                    try await Self.register(
                        provider,
                        #"{"redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "\#(method)"}"#
                    ).json
                )
                return ClientCredentials(
                    id: try #require(answer["client_id"]?.stringValue),
                    secret: try #require(answer["client_secret"]?.stringValue)
                )
            }
            let password = [("grant_type", "password"), ("username", "alice"), ("password", "wonderland")]
            func inForm(_ client: ClientCredentials) -> [(String, String)] {
                password + [("client_id", client.id), ("client_secret", client.secret)]
            }
            let basic = try await registered("client_secret_basic")
            #expect(try await provider.token(password, basic: basic).status == 200)
            let basicInForm = try await provider.token(inForm(basic), basic: nil)
            #expect(basicInForm.status == 401)
            #expect(basicInForm.json?["error"]?.stringValue == "invalid_client")

            let post = try await registered("client_secret_post")
            #expect(try await provider.token(inForm(post), basic: nil).status == 200)
            let postByBasic = try await provider.token(password, basic: post)
            #expect(postByBasic.status == 401)
            #expect(postByBasic.json?["error"]?.stringValue == "invalid_client")
            #expect(postByBasic.headers["WWW-Authenticate"].first?.hasPrefix("Basic") == true)
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
