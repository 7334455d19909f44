import AsyncHTTPClient
import Foundation
import MockProvider

/// An MCP client's sign-in (MCP authorization 2026-07-28): the server's 401 names its Protected
/// Resource Metadata (RFC 9728), which names the authorization server, whose metadata (RFC 8414 or
/// OpenID Connect Discovery) names its endpoints; then the authorization code flow with PKCE S256
/// and the server as `resource` (RFC 8707) in the authorization request and every token request.
/// A document that names another resource or issuer, or an authorization server without S256,
/// ends the sign-in before anything is sent to the authorization server. A client the provider
/// holds no registration for obtains its client ID first (`ReferenceClient+MCPRegistration`).
extension ReferenceClient {
    func mcpAuthorizationURL() async -> Result<String, ClientFailure> {
        let server = environment.endpoints.mcpServer
        let challenged: BearerChallenge?
        do {
            let answer = try await exchange(HTTPClientRequest(url: server))
            guard answer.status == 401 else {
                return .failure(
                    ClientFailure(
                        .protocolViolation,
                        message: "the MCP server answered \(answer.status) to a request without a token, not 401"
                    )
                )
            }
            challenged = BearerChallenge.first(in: answer.headers["WWW-Authenticate"])
        } catch {
            return .failure(Self.transportFailure(error))
        }

        let resourceURLs = MCPDiscoveryURLs.protectedResourceMetadata(
            server: server,
            challenged: challenged?.resourceMetadata,
            order: behaviour.mcp.metadataOrder
        )
        let resourceMetadata: JSONValue
        switch await firstDocument(at: resourceURLs, naming: "Protected Resource Metadata") {
        case .success(let document): resourceMetadata = document
        case .failure(let failure): return .failure(failure)
        }
        // RFC 9728 §3.3: a document about another resource must not be used.
        if behaviour.mcp.checksResource, resourceMetadata["resource"]?.stringValue != server {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message:
                        "the Protected Resource Metadata names the resource \(Self.quoted(resourceMetadata["resource"])), not the MCP server \(server) (RFC 9728 §3.3)"
                )
            )
        }
        guard case .array(let servers)? = resourceMetadata["authorization_servers"],
            let issuer = servers.first?.stringValue
        else {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message: "the Protected Resource Metadata names no authorization server"
                )
            )
        }

        let serverURLs = MCPDiscoveryURLs.authorizationServerMetadata(
            issuer: issuer,
            order: behaviour.mcp.serverMetadataOrder
        )
        let serverMetadata: JSONValue
        switch await firstDocument(at: serverURLs, naming: "authorization server metadata") {
        case .success(let document): serverMetadata = document
        case .failure(let failure): return .failure(failure)
        }
        // RFC 8414 §3.3, MCP "Authorization Server Metadata Discovery": not the issuer asked about, not used.
        if behaviour.mcp.checksIssuer, serverMetadata["issuer"]?.stringValue != issuer {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message:
                        "the authorization server metadata's issuer is \(Self.quoted(serverMetadata["issuer"])), not \(issuer), whose metadata was asked for (RFC 8414 §3.3)"
                )
            )
        }
        // MCP "Authorization Code Protection": no S256 advertised, no sign-in.
        let methods: [String] =
            if case .array(let listed)? = serverMetadata["code_challenge_methods_supported"] {
                listed.compactMap(\.stringValue)
            } else { [] }
        if behaviour.mcp.requiresS256, !methods.contains("S256") {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message:
                        "the authorization server does not list S256 in code_challenge_methods_supported (\(methods.isEmpty ? "absent" : methods.joined(separator: ", "))); refusing to sign in without it"
                )
            )
        }
        guard let authorizationEndpoint = serverMetadata["authorization_endpoint"]?.stringValue,
            let tokenEndpoint = serverMetadata["token_endpoint"]?.stringValue
        else {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message: "the authorization server metadata lacks authorization_endpoint or token_endpoint"
                )
            )
        }

        if let failure = await obtainMCPClientID(issuer: issuer, serverMetadata: serverMetadata) {
            return .failure(failure)
        }
        let expectedIssuer = ExpectedIssuer(
            identifier: issuer,
            requiredInResponse: behaviour.mcp.demandsUnadvertisedIssuer
                || serverMetadata["authorization_response_iss_parameter_supported"] == .bool(true),
            comparison: behaviour.mcp.issuerComparison
        )
        mcpAuthorization = MCPAuthorization(
            expectedIssuer: expectedIssuer,
            tokenEndpoint: tokenEndpoint,
            resource: server
        )
        let request = AuthorizationRequest(
            state: behaviour.unguessableState ? AuthorizationRequest.random() : "state",
            codeVerifier: AuthorizationRequest.random(),
            redirectURI: environment.redirectURI,
            scope: Self.scope(challenged: challenged?.scope, metadata: resourceMetadata, behaviour: behaviour.mcp),
            resource: behaviour.mcp.resourceInAuthorizationRequest ? server : nil
        )
        pendingAuthorization = request
        return .success(
            request.url(endpoint: authorizationEndpoint, clientID: environment.client.id, pkce: behaviour.pkce)
        )
    }

    /// MCP "Scope Selection Strategy": the challenge's scope, else every scope the Protected
    /// Resource Metadata lists, else none.
    static func scope(challenged: String?, metadata: JSONValue, behaviour: MCPBehaviour) -> String? {
        if behaviour.scopeFromChallenge, let challenged { return challenged }
        guard case .array(let listed)? = metadata["scopes_supported"] else { return challenged }
        let scopes = listed.compactMap(\.stringValue)
        return scopes.isEmpty ? challenged : scopes.joined(separator: " ")
    }

    /// A token request of the MCP session goes to its authorization server's token endpoint with
    /// the server as `resource` (RFC 8707 §2); any other to the environment's.
    func tokenRequestTarget(_ fields: [(String, String)]) -> (url: String, fields: [(String, String)]) {
        guard let mcpAuthorization else { return (environment.endpoints.token, fields) }
        guard behaviour.mcp.resourceInTokenRequests, !fields.contains(where: { $0.0 == "resource" }) else {
            return (mcpAuthorization.tokenEndpoint, fields)
        }
        return (mcpAuthorization.tokenEndpoint, fields + [("resource", mcpAuthorization.resource)])
    }

    /// The first of `urls` that answers 200 with a JSON object; the others are tried in turn.
    private func firstDocument(at urls: [String], naming what: String) async -> Result<JSONValue, ClientFailure> {
        var tried: [String] = []
        for url in urls {
            do {
                let answer = try await exchange(HTTPClientRequest(url: url))
                if answer.status == 200, let document = JSONValue.parse(answer.body), case .object = document {
                    return .success(document)
                }
                tried.append("\(url) (\(answer.status))")
            } catch {
                return .failure(Self.transportFailure(error))
            }
        }
        return .failure(
            ClientFailure(.protocolViolation, message: "no \(what) found at " + tried.joined(separator: ", "))
        )
    }

    private static func quoted(_ value: JSONValue?) -> String {
        value?.stringValue.map { "'\($0)'" } ?? "absent"
    }
}
