import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The pieces of the reference client's MCP discovery that need no provider: reading a Bearer
/// challenge (RFC 6750 §3, RFC 9110 §11.6.1) and the URLs it tries, in the MCP spec's order.
@Suite("The reference client's MCP discovery: the Bearer challenge it reads and the URLs it tries")
struct MCPDiscoveryTests {
    @Test("a Bearer challenge's parameters: quoted or tokens, escapes, names in any case, other schemes skipped")
    func challenge() {
        let plain = BearerChallenge(header: #"Bearer resource_metadata="https://a.example/x", scope="files:read""#)
        #expect(plain?.resourceMetadata == "https://a.example/x")
        #expect(plain?.scope == "files:read")
        let mixed = BearerChallenge(header: #"Basic realm="a, b", Bearer Scope=token68ish, error="x\"y""#)
        #expect(mixed?.scope == "token68ish")
        #expect(mixed?.parameters["error"] == #"x"y"#)
        #expect(mixed?.parameters["realm"] == nil)
        #expect(BearerChallenge(header: "bearer")?.parameters == [:])
        #expect(BearerChallenge(header: #"DPoP algs="ES256""#) == nil)
        #expect(BearerChallenge.first(in: [#"DPoP algs="ES256""#, "Bearer scope=a"])?.scope == "a")
    }

    @Test("Protected Resource Metadata: the challenge's URL, then path-based, then root; each defect's order")
    func protectedResourceMetadataURLs() {
        let server = "http://127.0.0.1:8080/mcp"
        let pathBased = "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp"
        let root = "http://127.0.0.1:8080/.well-known/oauth-protected-resource"
        func urls(_ challenged: String?, _ order: MCPBehaviour.MetadataOrder) -> [String] {
            MCPDiscoveryURLs.protectedResourceMetadata(server: server, challenged: challenged, order: order)
        }
        #expect(urls(root, .challengeThenPathThenRoot) == [root, pathBased])
        #expect(urls(nil, .challengeThenPathThenRoot) == [pathBased, root])
        #expect(urls(root, .ignoresChallenge) == [pathBased, root])
        #expect(urls(nil, .rootBeforePath) == [root, pathBased])
        #expect(urls(nil, .noRootFallback) == [pathBased])
    }

    @Test("authorization server metadata: for an issuer with a path three URLs, without one two, RFC 8414's first")
    func authorizationServerMetadataURLs() {
        let origin = "http://127.0.0.1:8080"
        #expect(
            MCPDiscoveryURLs.authorizationServerMetadata(issuer: origin + "/tenant1", order: .specOrder) == [
                origin + "/.well-known/oauth-authorization-server/tenant1",
                origin + "/.well-known/openid-configuration/tenant1",
                origin + "/tenant1/.well-known/openid-configuration",
            ]
        )
        #expect(
            MCPDiscoveryURLs.authorizationServerMetadata(issuer: origin, order: .specOrder) == [
                origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration",
            ]
        )
        #expect(
            MCPDiscoveryURLs.authorizationServerMetadata(issuer: origin + "/tenant1", order: .ignoresIssuerPath) == [
                origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration",
            ]
        )
        #expect(
            MCPDiscoveryURLs.authorizationServerMetadata(issuer: origin, order: .openIDFirst).first
                == origin + "/.well-known/openid-configuration"
        )
    }
}

/// The reference client's scope decisions for MCP (MCP authorization 2026-07-28, "Scope Selection
/// Strategy", "Refresh Tokens", "Step-Up Authorization Flow"), and the words scenarios judge them by.
@Suite("The reference client's MCP scopes: selection, offline_access, the step-up's union")
struct MCPScopeTests {
    let resourceMetadata: JSONValue = .object(["scopes_supported": .array([.string("a"), .string("b")])])
    let bare: JSONValue = .object([:])
    let serverMetadata: JSONValue = .object(["scopes_supported": .array([.string("openid"), .string("profile")])])

    @Test("the challenge's scope, else the resource's list, else none; the defect takes the server's list")
    func selection() {
        let conforming = MCPBehaviour.conforming
        func scope(_ challenged: String?, _ metadata: JSONValue, _ behaviour: MCPBehaviour = .conforming) -> String? {
            ReferenceClient.scope(
                challenged: challenged,
                metadata: metadata,
                serverMetadata: serverMetadata,
                behaviour: behaviour
            )
        }
        #expect(scope("c", resourceMetadata, conforming) == "c")
        #expect(scope(nil, resourceMetadata) == "a b")
        #expect(scope(nil, bare) == nil)
        var fallsBack = MCPBehaviour.conforming
        fallsBack.scopeFromServerMetadata = true
        #expect(scope(nil, bare, fallsBack) == "openid profile")
        #expect(scope(nil, resourceMetadata, fallsBack) == "a b")
    }

    @Test("offline_access only when the authorization server lists it; the defect adds it always")
    func offlineAccess() {
        let listing: JSONValue = .object(["scopes_supported": .array([.string("offline_access")])])
        #expect(
            ReferenceClient.withOfflineAccess("a", serverMetadata: listing, behaviour: .conforming)
                == "a offline_access"
        )
        #expect(
            ReferenceClient.withOfflineAccess(nil, serverMetadata: listing, behaviour: .conforming) == "offline_access"
        )
        #expect(ReferenceClient.withOfflineAccess("a", serverMetadata: serverMetadata, behaviour: .conforming) == "a")
        var always = MCPBehaviour.conforming
        always.offlineAccessOnlyWhenListed = false
        #expect(
            ReferenceClient.withOfflineAccess("a", serverMetadata: serverMetadata, behaviour: always)
                == "a offline_access"
        )
    }

    @Test("a step-up's scope is the union, each scope once, in the order first met")
    func union() {
        #expect(ReferenceClient.union("files:read", "files:write") == "files:read files:write")
        #expect(ReferenceClient.union("a b", "b c") == "a b c")
        #expect(ReferenceClient.union(nil, "w") == "w")
        #expect(ReferenceClient.union(nil, nil) == nil)
    }

    @Test("excludes admits an absent parameter and a list without the word, not one with it")
    func excludes() {
        let offline = ParameterRequirement("scope", .excludes("offline_access"))
        #expect(offline.admits(nil))
        #expect(offline.admits("files:read offline_accessx"))
        #expect(!offline.admits("files:read offline_access"))
        #expect(offline.description == "scope without offline_access")
    }

    @Test("mcp_call decodes to the operation and its request; a method that is no one word is reported where it is")
    func mcpCallStep() throws {
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: a/b
            title: t
            area: mcp
            level: SHOULD
            steps:
              - mcp_sign_in:
              - mcp_call: tools/call
                outcome: succeeds
            expect: [{ every_step: succeeds }]
            """
        )
        #expect(scenario.steps.map(\.action) == [.client(.mcpSignIn), .client(.mcpCall(method: "tools/call"))])
        #expect(scenario.requiredCapabilities == [.mcpDiscovery])
        let call = ClientCall.mcpCall(method: "tools/call", url: "http://127.0.0.1:1/mcp")
        #expect(call.op == .request)
        #expect(call.fields["mcp_method"] == .string("tools/call"))
        #expect(ClientCall(message: call.batchOperation) == call)
        let found = Fixtures.diagnostics(
            """
            conformance: 1
            id: a/b
            title: t
            area: mcp
            level: SHOULD
            steps:
              - mcp_call: "tools call"
            expect: [{ every_step: succeeds }]
            """
        ).map(\.description)
        #expect(
            found == ["broken.yaml:7:15: error: mcp_call names one MCP method, such as 'tools/call', not 'tools call'"]
        )
    }
}
