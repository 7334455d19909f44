import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// A public client end to end (`provider.client_authentication: none`): the runner gives the
/// client no secret, and the reference client signs in by each flow with its `client_id` alone
/// and PKCE, as the provider requires of a public client.
@Suite("A public client's registration, end to end with the reference client")
struct PublicClientRunTests {
    /// The steps of one sign-in by each flow a public client has, each followed by a refresh.
    enum Flow: String, CaseIterable, CustomTestStringConvertible {
        case openIDConnect = "sign_in:"
        case authorizationCode = "authorize:"
        case deviceGrant = "device_sign_in:"
        case password = "login: password"

        var testDescription: String { rawValue }
    }

    static func scenario(_ flow: Flow) throws -> Scenario {
        try Fixtures.scenario(
            """
            conformance: 1
            id: security/public-client-\(flow.rawValue.prefix { $0 != ":" })
            title: A public client signs in with client_id alone and PKCE, and refreshes
            area: security
            family: authorization-code-flow
            level: MUST
            provider:
              client_authentication: none
              device_authorization: { user: { approves_at_poll: 1 } }
            steps:
              - \(flow.rawValue)
                outcome: succeeds
              - advance_to: expiry(access_token#1) + 10s
              - request: GET /resource
                outcome: succeeds
            expect:
              - every_step: succeeds
              - request: { endpoint: token, call: 1 }
                parameters: { client_id: conformance-client, client_secret: absent, client_assertion: absent }
              - request: { endpoint: token, grant: refresh_token, call: 1 }
                parameters: { client_id: conformance-client, client_secret: absent }
              - never: { carries: client_secret }
            """
        )
    }

    @Test("the reference client passes by each flow, sending client_id alone", arguments: Flow.allCases)
    func referencePasses(_ flow: Flow) async throws {
        let result = await ScenarioRunner(stepTimeout: .seconds(60)).run(
            try Self.scenario(flow),
            with: ReferenceClientFactory()
        )
        #expect(result.verdict == .passed, "\(result.checks.filter { !$0.passed })")
        let journal = try #require(result.transcript?.journal)
        let authenticated = journal.filter { [.token, .deviceAuthorization].contains($0.endpoint) }
        #expect(!authenticated.isEmpty)
        #expect(authenticated.allSatisfy { $0.request.header("Authorization") == nil })
    }

    @Test("the environment gives a public client no secret, and the adapter protocol says null")
    func noSecret() throws {
        let environment = ClientEnvironment(
            endpoints: ProviderEndpoints(baseURL: "http://127.0.0.1:4711", appServerOrigin: "http://127.0.0.1:4712"),
            redirectURI: "http://127.0.0.1/callback",
            client: ClientCredentials(id: "conformance-client", secret: "conformance-secret"),
            user: UserCredentials(username: "alice", password: "wonderland"),
            clock: VirtualClock(),
            storageDirectory: URL(fileURLWithPath: "/tmp/oauth-conformance-client-public"),
            clientAuthentication: .publicClient
        )
        #expect(environment.clientSecret == nil)
        #expect(environment.client.secret.isEmpty)
        #expect(environment.adapterMessageValue["client_secret"] == .null)
        #expect(environment.adapterMessageValue["token_endpoint_auth_method"] == .string("none"))
        let decoder = JSONDecoder()
        decoder.userInfo[.virtualClock] = VirtualClock()
        let decoded = try decoder.decode(
            ClientEnvironment.self,
            from: Data(environment.adapterMessageValue.serialized().utf8)
        )
        #expect(decoded.clientAuthentication == .publicClient && decoded.clientSecret == nil)
    }

    @Test("a client without PKCE is refused at the authorization endpoint, and its sign-in fails")
    func withoutPKCERefused() async throws {
        var behaviour = ClientBehaviour.conforming
        behaviour.pkce = .none
        let result = await ScenarioRunner(stepTimeout: .seconds(60)).run(
            try Self.scenario(.authorizationCode),
            with: ReferenceClientFactory(behaviour: behaviour)
        )
        #expect(result.verdict == .failed)
        let authorization = result.transcript?.journal.first { $0.endpoint == .authorize }
        #expect(authorization?.response.header("Location")?.contains("error=invalid_request") == true)
    }
}
