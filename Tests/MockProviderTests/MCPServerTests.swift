import Foundation
import MockProvider
import Testing

/// The provider as an MCP server and its authorization server (MCP authorization 2026-07-28),
/// observed on the wire: the 401's challenge, the Protected Resource Metadata (RFC 9728), the
/// metadata of an issuer with a path (RFC 8414 §3.1, OpenID Connect Discovery §4), and the rules
/// that make each misbehave.
@Suite("MCP server: the 401 challenge, Protected Resource Metadata, and metadata of an issuer with a path")
struct MCPServerTests {
    @Test("a request without a token gets 401 naming the path-based metadata URL; a live token gets 200")
    func challengeAndAccess() async throws {
        try await RunningProvider.with { provider in
            let origin = provider.server.baseURL
            let refused = try await provider.send("GET", path: "/mcp")
            #expect(refused.status == 401)
            #expect(
                refused.headers["WWW-Authenticate"]
                    == ["Bearer resource_metadata=\"\(origin)/.well-known/oauth-protected-resource/mcp\""]
            )
            let token = try #require(try await provider.passwordGrant().json?["access_token"]?.stringValue)
            let accepted = try await provider.send("GET", path: "/mcp", headers: [("Authorization", "Bearer \(token)")])
            #expect(accepted.status == 200)
            let stale = try await provider.send("GET", path: "/mcp", headers: [("Authorization", "Bearer nope")])
            #expect(stale.status == 401)
            #expect(stale.headers["WWW-Authenticate"].first?.hasSuffix(", error=\"invalid_token\"") == true)
        }
    }

    @Test(
        "an authorized JSON-RPC message gets an MCP server's answer: initialize, tools, a notification, an unknown method; an unauthorized one the 401"
    )
    func jsonRPCMessages() async throws {
        try await RunningProvider.with { provider in
            func post(_ message: String, token: String?) async throws -> RunningProvider.Answer {
                var headers = [("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")]
                if let token { headers.append(("Authorization", "Bearer \(token)")) }
                return try await provider.send("POST", path: "/mcp", headers: headers, body: message)
            }
            let initialize =
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#
            #expect(try await post(initialize, token: nil).status == 401)
            let token = try #require(try await provider.passwordGrant().json?["access_token"]?.stringValue)
            let initialized = try await post(initialize, token: token)
            #expect(initialized.status == 200)
            #expect(initialized.json?["id"] == .integer(1))
            #expect(initialized.json?["result"]?["protocolVersion"] == .string("2025-11-25"))
            let notification = try await post(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, token: token)
            #expect(notification.status == 202)
            let tools = try await post(#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#, token: token)
            #expect(tools.json?["id"] == .string("a"))
            #expect(tools.json?["result"]?["tools"] != nil)
            let call = try await post(
                #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#,
                token: token
            )
            #expect(call.json?["result"]?["isError"] == .bool(false))
            let unknown = try await post(#"{"jsonrpc":"2.0","id":3,"method":"resources/list"}"#, token: token)
            #expect(unknown.json?["error"]?["code"] == .integer(-32601))
            let stream = try await provider.send(
                "GET",
                path: "/mcp",
                headers: [("Authorization", "Bearer \(token)"), ("Accept", "text/event-stream")]
            )
            #expect(stream.status == 405)
        }
    }

    @Test(
        "a method that needs a scope the token was not granted gets 403 insufficient_scope naming the method's scope; a token granted it, and a method that needs none, get answers"
    )
    func insufficientScope() async throws {
        var settings = ProviderSettings()
        settings.mcp.methodScopes = ["tools/call": "files:write"]
        try await RunningProvider.with(settings) { provider in
            let origin = provider.server.baseURL
            func token(scope: String) async throws -> String {
                let answer = try await provider.token(
                    [
                        ("grant_type", "password"), ("username", settings.user.username),
                        ("password", settings.user.password), ("scope", scope),
                    ],
                    basic: settings.client
                )
                return try #require(answer.json?["access_token"]?.stringValue)
            }
            func post(_ method: String, token: String) async throws -> RunningProvider.Answer {
                try await provider.send(
                    "POST",
                    path: "/mcp",
                    headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")],
                    body: MCPRequestMessage.body(method: method)
                )
            }
            let reader = try await token(scope: "files:read")
            let refused = try await post("tools/call", token: reader)
            #expect(refused.status == 403)
            #expect(
                refused.headers["WWW-Authenticate"]
                    == [
                        "Bearer error=\"insufficient_scope\", scope=\"files:write\", resource_metadata=\"\(origin)/.well-known/oauth-protected-resource/mcp\", error_description=\"the token lacks the scope this method needs\""
                    ]
            )
            #expect(try await post("tools/list", token: reader).status == 200)
            let writer = try await token(scope: "files:read files:write")
            let called = try await post("tools/call", token: writer)
            #expect(called.status == 200)
            #expect(called.json?["result"]?["isError"] == .bool(false))
        }
        settings.mcp.scopesNeverEnough = true
        try await RunningProvider.with(settings) { provider in
            let answer = try await provider.token(
                [
                    ("grant_type", "password"), ("username", settings.user.username),
                    ("password", settings.user.password), ("scope", "files:write"),
                ],
                basic: settings.client
            )
            let token = try #require(answer.json?["access_token"]?.stringValue)
            let refused = try await provider.send(
                "POST",
                path: "/mcp",
                headers: [("Authorization", "Bearer \(token)")],
                body: MCPRequestMessage.body(method: "tools/call")
            )
            #expect(refused.status == 403)
            #expect(refused.headers["WWW-Authenticate"].first?.contains("scope=\"files:write\"") == true)
        }
    }

    @Test("a token is granted its authorization request's scope, and its refreshes keep it")
    func grantedScope() async throws {
        try await RunningProvider.with { provider in
            let client = RegisteredClient(provider: provider)
            let signedIn = try await client.tokens(by: .authorizationCode, scope: "files:read files:write")
            let refreshToken = try #require(signedIn.json?["refresh_token"]?.stringValue, "\(signedIn.body)")
            let refreshed = try await client.refresh(refreshToken)
            #expect(refreshed.status == 200)
            let issued = provider.provider.issuedTokens.filter { $0.kind == .access }
            #expect(issued.count == 2)
            #expect(issued.allSatisfy { $0.scope == "files:read files:write" })
        }
    }

    @Test("the challenge names the root metadata URL, none, and a scope, as the settings say")
    func challengeSettings() async throws {
        var settings = ProviderSettings()
        settings.mcp = MCPServerPolicy(challengeScope: "files:read")
        settings.mcp.challengeNames = .protectedResourceMetadataRoot
        try await RunningProvider.with(settings) { provider in
            let origin = provider.server.baseURL
            let answer = try await provider.send("GET", path: "/mcp")
            #expect(
                answer.headers["WWW-Authenticate"]
                    == [
                        "Bearer resource_metadata=\"\(origin)/.well-known/oauth-protected-resource\", scope=\"files:read\""
                    ]
            )
        }
        settings.mcp = MCPServerPolicy()
        settings.mcp.challengeNames = nil
        try await RunningProvider.with(settings) { provider in
            let answer = try await provider.send("GET", path: "/mcp")
            #expect(answer.headers["WWW-Authenticate"] == ["Bearer"])
        }
    }

    @Test("the Protected Resource Metadata is the same at both well-known URLs: the server, and the issuer")
    func protectedResourceMetadata() async throws {
        var settings = ProviderSettings()
        settings.mcp.scopesSupported = ["files:read", "files:write"]
        try await RunningProvider.with(settings) { provider in
            let origin = provider.server.baseURL
            for path in ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"] {
                let document = try await provider.send("GET", path: path)
                #expect(document.status == 200)
                #expect(document.json?["resource"] == .string(origin + "/mcp"))
                #expect(document.json?["authorization_servers"] == .array([.string(origin)]))
                #expect(document.json?["scopes_supported"] == .array([.string("files:read"), .string("files:write")]))
            }
            let endpoints = provider.provider.journal.entries.map(\.endpoint)
            #expect(endpoints == [.protectedResourceMetadata, .protectedResourceMetadataRoot])
        }
    }

    @Test("an issuer with a path has its metadata at the three URLs built from it, and nowhere else")
    func issuerWithAPath() async throws {
        var settings = ProviderSettings()
        settings.issuerPath = "/tenant1"
        try await RunningProvider.with(settings) { provider in
            let origin = provider.server.baseURL
            for path in [
                "/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1",
                "/tenant1/.well-known/openid-configuration",
            ] {
                let document = try await provider.send("GET", path: path)
                #expect(document.status == 200, "\(path)")
                #expect(document.json?["issuer"] == .string(origin + "/tenant1"), "\(path)")
                #expect(document.json?["token_endpoint"] == .string(origin + "/token"), "\(path)")
            }
            for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
                #expect(try await provider.send("GET", path: path).status == 404, "\(path)")
            }
            let metadata = try await provider.send("GET", path: "/.well-known/oauth-protected-resource/mcp")
            #expect(metadata.json?["authorization_servers"] == .array([.string(origin + "/tenant1")]))
        }
    }

    @Test("a rule alters a document (set and omit) at one endpoint, and another by its path")
    func documentAlterationAndPathRule() async throws {
        var settings = ProviderSettings()
        settings.issuerPath = "/tenant1"
        settings.rules = [
            ProviderRule(
                match: RequestMatcher(endpoint: .metadata, calls: .nth(1)),
                action: .alterDocument(
                    DocumentAlteration(
                        set: ["issuer": .string("https://attacker.example")],
                        omit: ["code_challenge_methods_supported"]
                    )
                )
            ),
            ProviderRule(
                match: RequestMatcher(path: "/tenant1/.well-known/openid-configuration"),
                action: .respond(ProviderResponse(status: 404))
            ),
        ]
        try await RunningProvider.with(settings) { provider in
            let altered = try await provider.send("GET", path: "/.well-known/oauth-authorization-server/tenant1")
            #expect(altered.json?["issuer"] == .string("https://attacker.example"))
            #expect(altered.json?["code_challenge_methods_supported"] == nil)
            #expect(altered.json?["token_endpoint"] != nil)
            let again = try await provider.send("GET", path: "/.well-known/oauth-authorization-server/tenant1")
            #expect(again.json?["code_challenge_methods_supported"] != nil)
            #expect(try await provider.send("GET", path: "/tenant1/.well-known/openid-configuration").status == 404)
            #expect(try await provider.send("GET", path: "/.well-known/openid-configuration/tenant1").status == 200)
        }
    }
}
