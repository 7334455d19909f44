import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// How a scenario says the provider holds no registration for the client
/// (`provider.client_registration`), what that asks of the client, and how a profile declares the
/// client's Client ID Metadata Document URL: each problem reported at its line and column.
@Suite("Loading client registration: provider.client_registration and client_id_metadata_url")
struct ClientRegistrationLoadingTests {
    func provider(_ yaml: String) throws -> ProviderSettings {
        try Fixtures.scenario(ProviderDecodingTests.scenarioText(provider: yaml)).provider
    }

    @Test("client_registration decodes into the policy, pre-registered and offering neither by default")
    func decoded() throws {
        #expect(try provider("seed: 1").registration == ClientRegistrationPolicy())
        #expect(
            try provider(
                "client_registration: { pre_registered: false, dynamic_registration: true, client_id_metadata_document: true }"
            ).registration
                == ClientRegistrationPolicy(
                    preRegistered: false,
                    dynamicRegistration: true,
                    clientIDMetadataDocuments: true
                )
        )
        #expect(
            try provider(
                "client_registration: { pre_registered: false, dynamic_registration: true, substitute_auth_method: client_secret_post }"
            ).registration.substitutedAuthMethod == "client_secret_post"
        )
        #expect(
            try provider("client_registration: { dynamic_registration: true }").registration
                == ClientRegistrationPolicy(dynamicRegistration: true)
        )
    }

    @Test("a bad value, an unknown key, or no way to get a client ID is reported where it stands")
    func problems() {
        func problems(_ yaml: String) -> [String] {
            Fixtures.diagnostics(ProviderDecodingTests.scenarioText(provider: yaml)).map(\.description)
        }
        #expect(
            problems("client_registration: { pre_registered: no_thanks }") == [
                "broken.yaml:7:42: error: client_registration.pre_registered must be true or false, not 'no_thanks'"
            ]
        )
        #expect(
            problems("client_registration: { dynamic: true }") == [
                "broken.yaml:7:26: error: unknown key 'dynamic' in provider.client_registration (allowed: pre_registered, dynamic_registration, client_id_metadata_document, substitute_auth_method, token_endpoint_auth_methods)"
            ]
        )
        #expect(
            problems("client_registration: { dynamic_registration: true, substitute_auth_method: tls_client_auth }")
                .first?.hasPrefix(
                    "broken.yaml:7:78: error: 'tls_client_auth' is not a valid client_registration.substitute_auth_method"
                ) == true,
            "\(problems("client_registration: { dynamic_registration: true, substitute_auth_method: tls_client_auth }"))"
        )
        #expect(
            problems("client_registration: { pre_registered: false }") == [
                "broken.yaml:7:24: error: client_registration.pre_registered: false leaves the client no way to get a client ID: offer dynamic_registration or client_id_metadata_document"
            ]
        )
    }

    @Test("token_endpoint_auth_methods decodes into the methods the server offers")
    func offeredAuthMethods() throws {
        #expect(
            try provider(
                "client_registration: { pre_registered: false, dynamic_registration: true, token_endpoint_auth_methods: [client_secret_post] }"
            ).registration
                == ClientRegistrationPolicy(
                    preRegistered: false,
                    dynamicRegistration: true,
                    offeredAuthMethods: ["client_secret_post"]
                )
        )
        #expect(
            try provider(
                "client_registration: { pre_registered: false, dynamic_registration: true, client_id_metadata_document: true, token_endpoint_auth_methods: [none, client_secret_basic] }"
            ).registration.offeredAuthMethods == ["none", "client_secret_basic"]
        )
        #expect(
            try provider("client_registration: { dynamic_registration: true }").registration.offeredAuthMethods == nil
        )
        #expect(
            try provider(
                "mcp: { second_authorization_server: { dynamic_registration: true, token_endpoint_auth_methods: [none] } }"
            ).mcp.secondAuthorizationServer?.offeredAuthMethods == ["none"]
        )
    }

    @Test(
        "token_endpoint_auth_methods that are not registrable, none, repeated, or at odds with how clients get their IDs are reported where they stand"
    )
    func offeredAuthMethodProblems() {
        func problems(_ registration: String) -> [String] {
            Fixtures.diagnostics(ProviderDecodingTests.scenarioText(provider: "client_registration: " + registration))
                .map(\.description)
        }
        let dynamic = "{ pre_registered: false, dynamic_registration: true, "
        let cases: [(String, String)] = [
            (
                dynamic + "token_endpoint_auth_methods: [client_secret_post, tls_client_auth] }",
                "broken.yaml:7:127: error: 'tls_client_auth' is not a valid item of client_registration.token_endpoint_auth_methods"
            ),
            (
                dynamic + "token_endpoint_auth_methods: client_secret_post }",
                "broken.yaml:7:106: error: client_registration.token_endpoint_auth_methods must be a list"
            ),
            (
                dynamic + "token_endpoint_auth_methods: [] }",
                "broken.yaml:7:106: error: client_registration.token_endpoint_auth_methods lists the methods a registration may ask for"
            ),
            (
                dynamic + "token_endpoint_auth_methods: [none, none] }",
                "broken.yaml:7:106: error: client_registration.token_endpoint_auth_methods names a method twice"
            ),
            (
                "{ pre_registered: false, client_id_metadata_document: true, token_endpoint_auth_methods: [none] }",
                "broken.yaml:7:113: error: client_registration.token_endpoint_auth_methods says what a dynamic registration may ask for: it needs dynamic_registration: true"
            ),
            (
                "{ dynamic_registration: true, token_endpoint_auth_methods: [none] }",
                "broken.yaml:7:83: error: client_registration.token_endpoint_auth_methods stands for every client of the token endpoint"
            ),
            (
                dynamic + "client_id_metadata_document: true, token_endpoint_auth_methods: [client_secret_post] }",
                "broken.yaml:7:141: error: client_registration.token_endpoint_auth_methods leaves out none"
            ),
            (
                dynamic
                    + "substitute_auth_method: client_secret_basic, token_endpoint_auth_methods: [client_secret_post] }",
                "broken.yaml:7:151: error: client_registration.token_endpoint_auth_methods leaves out client_secret_basic"
            ),
        ]
        for (registration, expected) in cases {
            let found = problems(registration)
            #expect(found.count == 1 && found[0].hasPrefix(expected), "\(registration): \(found)")
        }
    }

    @Test("without a pre-registration, a scenario needs the way the spec's order has the client get its client ID")
    func requiredCapability() {
        #expect(ClientRegistrationPolicy(dynamicRegistration: true).requiredCapability == nil)
        #expect(
            ClientRegistrationPolicy(preRegistered: false, dynamicRegistration: true).requiredCapability
                == .dynamicRegistration
        )
        #expect(
            ClientRegistrationPolicy(preRegistered: false, clientIDMetadataDocuments: true).requiredCapability
                == .clientIDMetadataDocument
        )
        #expect(
            ClientRegistrationPolicy(preRegistered: false, dynamicRegistration: true, clientIDMetadataDocuments: true)
                .requiredCapability == .clientIDMetadataDocument
        )
    }

    @Test("a client without the capability is skipped with the reason, not failed")
    func skipped() async throws {
        let scenario = try Fixtures.builtInScenario("mcp/dynamic-registration-used-without-cimd")
        var factory = ReferenceClientFactory()
        factory.profile.capabilities.remove(.dynamicRegistration)
        let result = await ScenarioRunner().run(scenario, with: factory)
        #expect(result.verdict == .skipped(reason: "the client does not declare dynamic_registration"))
    }

    @Test("a profile's client_id_metadata_url is an https URL with a path, and declares client_id_metadata_document")
    func profileURL() throws {
        func load(_ extra: String, capabilities: String = "[]") -> AdapterProfileLoader.Result {
            AdapterProfileLoader.decode(
                "profile: 1\nadapter: { command: ./run.sh }\ncapabilities: \(capabilities)\n" + extra,
                file: "p.yaml"
            )
        }
        let declared = try #require(
            load("client_id_metadata_url: https://client.example/oauth/metadata.json\n").profile
        )
        .declared
        #expect(declared.clientIDMetadataURL == "https://client.example/oauth/metadata.json")
        #expect(declared.capabilities.contains(.clientIDMetadataDocument))
        #expect(try #require(load("").profile).declared.clientIDMetadataURL == nil)
        for bad in ["http://client.example/metadata.json", "https://client.example", "https://client.example/", "x"] {
            #expect(
                load("client_id_metadata_url: \"\(bad)\"\n").diagnostics.first?.description.hasPrefix(
                    "p.yaml:4:25: error: client_id_metadata_url is the URL of the client's Client ID Metadata Document"
                ) == true,
                "\(bad): \(load("client_id_metadata_url: \"\(bad)\"\n").diagnostics)"
            )
        }
        #expect(
            load("", capabilities: "[client_id_metadata_document]").diagnostics.map(\.description) == [
                "p.yaml:3:15: error: client_id_metadata_document needs client_id_metadata_url: the https URL of the client's Client ID Metadata Document, its client_id where the authorization server takes one"
            ]
        )
    }

    @Test("the environment carries no client_id for a client that is not pre-registered, and its document URL")
    func environmentWire() throws {
        let environment = ClientEnvironment(
            endpoints: ProviderEndpoints(baseURL: "http://127.0.0.1:1", appServerOrigin: "http://127.0.0.1:2"),
            redirectURI: "http://127.0.0.1/callback",
            client: ClientCredentials(id: "conformance-client", secret: "conformance-secret"),
            user: UserCredentials(username: "alice", password: "wonderland"),
            clock: VirtualClock(),
            storageDirectory: URL(fileURLWithPath: "/tmp"),
            isPreRegistered: false,
            clientIDMetadataDocumentURL: "https://client.example/metadata.json"
        )
        let wire = environment.adapterMessageValue
        #expect(wire["client_id"] == .null)
        #expect(wire["client_secret"] == .null)
        #expect(wire["client_id_metadata_document_url"]?.stringValue == "https://client.example/metadata.json")
    }
    /// `steps:` of an MCP scenario, with `provider:` as given.
    static func mcpScenario(provider yaml: String, steps: String) -> String {
        """
        conformance: 1
        id: a/b
        title: t
        area: mcp
        level: MUST
        provider:
        \(yaml.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        steps:
        \(steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        expect: [{ every_step: succeeds }]
        """
    }

    @Test(
        "a second authorization server decodes into its registration policy, never a pre-registration; a move step needs one"
    )
    func secondAuthorizationServer() throws {
        let moving = "- mcp_sign_in:\n- authorization_server: second\n- mcp_sign_in:"
        let scenario = try Fixtures.scenario(
            Self.mcpScenario(
                provider: "mcp: { second_authorization_server: { dynamic_registration: true } }",
                steps: moving
            )
        )
        #expect(
            scenario.provider.mcp.secondAuthorizationServer
                == ClientRegistrationPolicy(preRegistered: false, dynamicRegistration: true)
        )
        #expect(scenario.steps[1].action == .moveMCPServer(to: .second))
        // A server offering no way at all is a scenario of its own: a pre-registered client must say so.
        #expect(
            try provider("mcp: { second_authorization_server: {} }").mcp.secondAuthorizationServer
                == ClientRegistrationPolicy(preRegistered: false)
        )
        func problems(_ provider: String, _ steps: String) -> [String] {
            Fixtures.diagnostics(Self.mcpScenario(provider: provider, steps: steps)).map(\.description)
        }
        #expect(
            problems("seed: 1", moving) == [
                "broken.yaml:9:3: error: step 2 moves the MCP server to the second authorization server, which this provider lacks: give it one with provider.mcp.second_authorization_server"
            ]
        )
        #expect(
            problems("mcp: { second_authorization_server: { pre_registered: true } }", moving) == [
                "broken.yaml:7:41: error: unknown key 'pre_registered' in provider.mcp.second_authorization_server (allowed: dynamic_registration, client_id_metadata_document, substitute_auth_method, token_endpoint_auth_methods)"
            ]
        )
        #expect(
            problems("seed: 1", "- authorization_server: third").first?.contains(
                "'third' is not a valid authorization_server"
            ) == true,
            "\(problems("seed: 1", "- authorization_server: third"))"
        )
    }
}
