import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The environment is one value: the runner makes it, `reset` carries it encoded, the reference
/// adapter decodes it with the same type. Adapters already shipped read `reset` as protocol 1
/// has always written it, so its bytes must not move.
@Suite("The client environment on the wire")
struct ClientEnvironmentWireTests {
    /// Every optional field set, with text that needs escaping (a quote in a path, a JWK, non-ASCII).
    static let full = ClientEnvironment(
        endpoints: ProviderEndpoints(
            baseURL: "https://127.0.0.1:4711",
            appServerOrigin: "http://127.0.0.1:4712",
            takesPushedAuthorization: true
        ),
        redirectURI: "http://127.0.0.1/callback",
        client: ClientCredentials(id: "conformance-client", secret: "conformance-secret"),
        user: UserCredentials(username: "alice", password: "wonderland"),
        clock: VirtualClock(),
        storageDirectory: URL(fileURLWithPath: "/tmp/oauth-conformance-client-ÄÖ"),
        caCertificateFile: "/tmp/ca \"test\".pem",
        pinnedPublicKeySHA256: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=",
        idTokenSigningAlgorithm: "ES256",
        clientAuthentication: .privateKeyJWT,
        clientAssertionKey: #"{"kty":"EC","crv":"P-256","x":"a","y":"b","d":"c","kid":"k/1"}"#,
        dpopSigningAlgorithms: ["ES256", "ES384", "ES512", "RS256", "PS256", "EdDSA"]
    )

    /// What a plain scenario sends: the optional fields `null`.
    static let plain = ClientEnvironment(
        endpoints: ProviderEndpoints(baseURL: "http://127.0.0.1:36119", appServerOrigin: "http://127.0.0.1:41749"),
        redirectURI: "http://127.0.0.1/callback",
        client: ClientCredentials(id: "conformance-client", secret: "conformance-secret"),
        user: UserCredentials(username: "alice", password: "wonderland"),
        clock: VirtualClock(),
        storageDirectory: URL(fileURLWithPath: "/tmp/oauth-conformance-client-7DA3BD51")
    )

    /// The `reset` lines the harness wrote for these environments before the environment was
    /// one value, field by field (captured from that code), with the fields added since
    /// (`mcp_server_url`, MCP authorization; `client_id_metadata_document_url`, MCP client
    /// registration) in their sorted place.
    static let written = [
        #"{"environment":{"app_server_token_endpoint":"http://127.0.0.1:4712/app/token","authorization_endpoint":"https://127.0.0.1:4711/authorize","ca_file":"/tmp/ca \"test\".pem","client_assertion_jwk":"{\"kty\":\"EC\",\"crv\":\"P-256\",\"x\":\"a\",\"y\":\"b\",\"d\":\"c\",\"kid\":\"k/1\"}","client_id":"conformance-client","client_id_metadata_document_url":null,"client_secret":"conformance-secret","device_authorization_endpoint":"https://127.0.0.1:4711/device_authorization","dpop_signing_alg_values_supported":["ES256","ES384","ES512","RS256","PS256","EdDSA"],"id_token_signing_alg":"ES256","issuer":"https://127.0.0.1:4711","mcp_server_url":"https://127.0.0.1:4711/mcp","openid_configuration_url":"https://127.0.0.1:4711/.well-known/openid-configuration","password":"wonderland","pinned_public_key_sha256":"n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=","pushed_authorization_request_endpoint":"https://127.0.0.1:4711/par","redirect_uri":"http://127.0.0.1/callback","resource_base_url":"https://127.0.0.1:4711","storage_dir":"/tmp/oauth-conformance-client-ÄÖ","token_endpoint":"https://127.0.0.1:4711/token","token_endpoint_auth_method":"private_key_jwt","username":"alice"},"id":2,"now":1767225600,"op":"reset"}"#,
        #"{"environment":{"app_server_token_endpoint":"http://127.0.0.1:41749/app/token","authorization_endpoint":"http://127.0.0.1:36119/authorize","ca_file":null,"client_assertion_jwk":null,"client_id":"conformance-client","client_id_metadata_document_url":null,"client_secret":"conformance-secret","device_authorization_endpoint":"http://127.0.0.1:36119/device_authorization","dpop_signing_alg_values_supported":null,"id_token_signing_alg":"RS256","issuer":"http://127.0.0.1:36119","mcp_server_url":"http://127.0.0.1:36119/mcp","openid_configuration_url":"http://127.0.0.1:36119/.well-known/openid-configuration","password":"wonderland","pinned_public_key_sha256":null,"pushed_authorization_request_endpoint":null,"redirect_uri":"http://127.0.0.1/callback","resource_base_url":"http://127.0.0.1:36119","storage_dir":"/tmp/oauth-conformance-client-7DA3BD51","token_endpoint":"http://127.0.0.1:36119/token","token_endpoint_auth_method":"client_secret","username":"alice"},"id":2,"now":1767225600,"op":"reset"}"#,
    ]

    static func resetLine(_ environment: ClientEnvironment) -> String {
        AdapterRequest(
            id: 2,
            op: .reset,
            now: VirtualClock.defaultOrigin,
            fields: ["environment": environment.adapterMessageValue]
        ).line
    }

    @Test("reset carries the environment in the same bytes as before it was one Codable value")
    func sameBytes() {
        #expect(Self.resetLine(Self.full) == Self.written[0])
        #expect(Self.resetLine(Self.plain) == Self.written[1])
    }

    @Test("the reference adapter decodes what the harness encodes, reading the clock it is handed")
    func roundTrip() throws {
        for environment in [Self.full, Self.plain] {
            let clock = VirtualClock(origin: Date(timeIntervalSince1970: 1_800_000_000))
            let decoder = JSONDecoder()
            decoder.userInfo[.virtualClock] = clock
            let decoded = try decoder.decode(
                ClientEnvironment.self,
                from: Data(environment.adapterMessageValue.serialized().utf8)
            )
            #expect(decoded.adapterMessageValue == environment.adapterMessageValue)
            #expect(decoded.endpoints == environment.endpoints)
            #expect(decoded.clock === clock)
        }
    }

    @Test("an environment without a clock to read, or with a field missing, is not decoded")
    func incomplete() throws {
        let text = Data(Self.plain.adapterMessageValue.serialized().utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ClientEnvironment.self, from: text) }
        guard case .object(var members) = Self.plain.adapterMessageValue else {
            Issue.record("the environment is not an object")
            return
        }
        members["token_endpoint"] = nil
        let decoder = JSONDecoder()
        decoder.userInfo[.virtualClock] = VirtualClock()
        #expect(throws: DecodingError.self) {
            try decoder.decode(ClientEnvironment.self, from: Data(JSONValue.object(members).serialized().utf8))
        }
    }

    @Test("a request of the app server's resource goes to the app server's origin, every other to the provider's")
    func resourceURLs() {
        let endpoints = Self.plain.endpoints
        #expect(endpoints.resourceURL("/resource") == "http://127.0.0.1:36119/resource")
        #expect(endpoints.resourceURL("/app/resource?x=1") == "http://127.0.0.1:41749/app/resource?x=1")
        #expect(endpoints.resourceURL("/userinfo") == "http://127.0.0.1:36119/userinfo")
    }
}
