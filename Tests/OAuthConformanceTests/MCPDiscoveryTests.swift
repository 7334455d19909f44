import Foundation
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
