import Foundation
import MockProvider
import Testing

/// The provider's second authorization server, which an MCP server moves to (MCP authorization
/// 2026-07-28, "Authorization Server Binding"), observed on the wire: its metadata and endpoints
/// under its issuer's path, its own registrations and tokens, none of the first's credentials
/// taken, and the MCP server's metadata and tokens following the move.
@Suite("Second authorization server: its own issuer, registrations and tokens; the MCP server moving to it")
struct SecondAuthorizationServerTests {
    static let withSecondServer: ProviderSettings = {
        var settings = ProviderSettings()
        settings.registration.dynamicRegistration = true
        settings.mcp.secondAuthorizationServer = ClientRegistrationPolicy(
            preRegistered: false,
            dynamicRegistration: true
        )
        return settings
    }()

    static let redirectURI = "http://127.0.0.1:5000/callback"

    /// Registers a public client at `prefix` (`""` or `/as2`), authorizes it and redeems the code:
    /// the registration's client_id and the token response.
    static func signIn(
        _ provider: RunningProvider,
        at prefix: String
    ) async throws -> (
        clientID: String, tokens: JSONValue
    ) {
        let registration = try await provider.send(
            "POST",
            path: prefix + "/register",
            headers: [("Content-Type", "application/json")],
            body: #"{"redirect_uris": ["\#(redirectURI)"], "token_endpoint_auth_method": "none"}"#
        )
        let clientID = try #require(registration.json?["client_id"]?.stringValue)
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let query = [
            "response_type=code", "client_id=\(clientID)", "redirect_uri=\(redirectURI)",
            "code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method=S256",
        ]
        let redirect = try await provider.send("GET", path: prefix + "/authorize?" + query.joined(separator: "&"))
        let location = try #require(redirect.headers["Location"].first)
        let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        let token = try await provider.send(
            "POST",
            path: prefix + "/token",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body:
                "grant_type=authorization_code&code=\(code)&redirect_uri=\(redirectURI)&code_verifier=\(verifier)&client_id=\(clientID)"
        )
        #expect(token.status == 200, "\(token.body)")
        return (clientID, try #require(token.json))
    }

    @Test(
        "its metadata names its issuer <origin>/as2 and endpoints under that path, and only the authorization code flow's"
    )
    func metadata() async throws {
        try await RunningProvider.with(Self.withSecondServer) { provider in
            let issuer = provider.server.baseURL + "/as2"
            let document = try #require(
                try await provider.send("GET", path: "/.well-known/oauth-authorization-server/as2").json
            )
            #expect(document["issuer"]?.stringValue == issuer)
            #expect(document["authorization_endpoint"]?.stringValue == issuer + "/authorize")
            #expect(document["token_endpoint"]?.stringValue == issuer + "/token")
            #expect(document["registration_endpoint"]?.stringValue == issuer + "/register")
            #expect(document["revocation_endpoint"] == nil)
            #expect(document["device_authorization_endpoint"] == nil)
            #expect(try await provider.send("GET", path: "/as2/revoke").status == 404)
            // The first server's metadata is as it was.
            let first = try #require(
                try await provider.send("GET", path: "/.well-known/oauth-authorization-server").json
            )
            #expect(first["issuer"]?.stringValue == provider.server.baseURL)
        }
    }

    @Test("without a second server, its paths are nobody's")
    func absent() async throws {
        try await RunningProvider.with(ProviderSettings()) { provider async throws in
            #expect(try await provider.send("GET", path: "/.well-known/oauth-authorization-server/as2").status == 404)
            #expect(try await provider.send("POST", path: "/as2/token", body: "grant_type=password").status == 404)
            #expect(provider.provider.moveMCPServer(to: .second) == false)
        }
    }

    @Test("each server registers its own clients and issues its own tokens; neither takes the other's")
    func independentServers() async throws {
        try await RunningProvider.with(Self.withSecondServer) { provider in
            let first = try await Self.signIn(provider, at: "")
            let second = try await Self.signIn(provider, at: "/as2")
            #expect(first.clientID == "registered-client-1")
            #expect(second.clientID == "as2-registered-client-1")
            #expect(second.tokens["access_token"]?.stringValue == "as2-at-1")
            #expect(
                provider.provider.issuedTokens.map(\.label).sorted() == [
                    "access_token#1", "as2_access_token#1", "as2_refresh_token#1", "refresh_token#1",
                ]
            )
            // The first server's client and refresh token, presented to the second.
            let firstRefresh = try #require(first.tokens["refresh_token"]?.stringValue)
            let crossed = try await provider.send(
                "POST",
                path: "/as2/token",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: "grant_type=refresh_token&refresh_token=\(firstRefresh)&client_id=\(first.clientID)"
            )
            #expect(crossed.status == 401)
            #expect(crossed.json?["error"]?.stringValue == "invalid_client")
            // The second's own client with the first's refresh token: unknown there.
            let foreignToken = try await provider.send(
                "POST",
                path: "/as2/token",
                headers: [("Content-Type", "application/x-www-form-urlencoded")],
                body: "grant_type=refresh_token&refresh_token=\(firstRefresh)&client_id=\(second.clientID)"
            )
            #expect(foreignToken.json?["error"]?.stringValue == "invalid_grant")
            let preRegistered = try await provider.send(
                "GET",
                path: "/as2/authorize?response_type=code&client_id=conformance-client&redirect_uri=\(Self.redirectURI)"
            )
            #expect(preRegistered.status == 400)
        }
    }

    @Test("once the MCP server moves, its metadata names the second server and it takes only the second's tokens")
    func move() async throws {
        try await RunningProvider.with(Self.withSecondServer) { provider in
            let firstToken = try #require(try await Self.signIn(provider, at: "").tokens["access_token"]?.stringValue)
            let secondToken = try #require(
                try await Self.signIn(provider, at: "/as2").tokens["access_token"]?.stringValue
            )
            func call(_ token: String) async throws -> Int {
                try await provider.send("GET", path: "/mcp", headers: [("Authorization", "Bearer \(token)")]).status
            }
            func namedServers() async throws -> JSONValue? {
                try await provider.send("GET", path: "/.well-known/oauth-protected-resource/mcp").json?[
                    "authorization_servers"
                ]
            }
            #expect(try await call(firstToken) == 200)
            #expect(try await call(secondToken) == 401)
            #expect(try await namedServers() == .array([.string(provider.server.baseURL)]))
            #expect(provider.provider.moveMCPServer(to: .second))
            #expect(try await call(firstToken) == 401)
            #expect(try await call(secondToken) == 200)
            #expect(try await namedServers() == .array([.string(provider.server.baseURL + "/as2")]))
            #expect(provider.provider.moveMCPServer(to: .first))
            #expect(try await call(firstToken) == 200)
        }
    }
}
