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
        let discovered: MCPDiscovery
        switch await document(at: resourceURLs) {
        case .failure(let failure): return .failure(failure)
        case .success(.notFound(let answers)):
            // No Protected Resource Metadata anywhere: a server of MCP authorization 2025-03-26.
            switch await legacyDiscovery(server: server, resourceMetadataAnswers: answers) {
            case .success(let legacy): discovered = legacy
            case .failure(let failure): return .failure(failure)
            }
        case .success(.found(let resourceMetadata)):
            switch await discovery(from: resourceMetadata, server: server) {
            case .success(let found): discovered = found
            case .failure(let failure): return .failure(failure)
            }
        }
        let (issuer, resourceMetadata, serverMetadata) =
            (discovered.issuer, discovered.resourceMetadata, discovered.serverMetadata)
        // MCP "Authorization Code Protection": no S256 advertised, no sign-in.
        let methods: [String] =
            if case .array(let listed)? = serverMetadata["code_challenge_methods_supported"] {
                listed.compactMap(\.stringValue)
            } else { [] }
        if behaviour.mcp.requiresS256, !discovered.usesDefaultEndpoints, !methods.contains("S256") {
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
        let scope = Self.withOfflineAccess(
            Self.scope(
                challenged: challenged?.scope,
                metadata: resourceMetadata,
                serverMetadata: serverMetadata,
                behaviour: behaviour.mcp
            ),
            serverMetadata: serverMetadata,
            behaviour: behaviour.mcp
        )
        if let previous = mcpAuthorization, previous.expectedIssuer.identifier != issuer {
            // "Authorization Server Binding": the session's tokens are the previous server's, which
            // the MCP server no longer takes; none of them may go to this server's token endpoint.
            tokens = nil
            store.save(nil)
        }
        mcpAuthorization = MCPAuthorization(
            expectedIssuer: expectedIssuer,
            authorizationEndpoint: authorizationEndpoint,
            tokenEndpoint: tokenEndpoint,
            resource: server,
            scope: scope
        )
        mcpStepUps = [:]
        return .success(authorizationRequestURL(scope: scope))
    }

    /// From the server's Protected Resource Metadata: its authorization server and that server's
    /// metadata, each document checked for naming what it was asked about.
    private func discovery(
        from resourceMetadata: JSONValue,
        server: String
    ) async -> Result<MCPDiscovery, ClientFailure> {
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
        switch await document(at: serverURLs) {
        case .success(.found(let document)): serverMetadata = document
        case .success(.notFound(let answers)):
            return .failure(Self.noDocument("authorization server metadata", answers: answers))
        case .failure(let failure): return .failure(failure)
        }
        if let failure = checkedIssuer(of: serverMetadata, askedAbout: issuer) { return .failure(failure) }
        return .success(
            MCPDiscovery(issuer: issuer, resourceMetadata: resourceMetadata, serverMetadata: serverMetadata)
        )
    }

    /// RFC 8414 §3.3, MCP "Authorization Server Metadata Discovery": metadata naming another
    /// issuer than the one asked about is not used.
    func checkedIssuer(of serverMetadata: JSONValue, askedAbout issuer: String) -> ClientFailure? {
        guard behaviour.mcp.checksIssuer, serverMetadata["issuer"]?.stringValue != issuer else { return nil }
        return ClientFailure(
            .protocolViolation,
            message:
                "the authorization server metadata's issuer is \(Self.quoted(serverMetadata["issuer"])), not \(issuer), whose metadata was asked for (RFC 8414 §3.3)"
        )
    }

    /// The authorization request of the MCP session for `scope`, made pending for the redirect.
    private func authorizationRequestURL(scope: String?) -> String {
        guard let mcpAuthorization else { return "" }
        let request = AuthorizationRequest(
            state: behaviour.unguessableState ? AuthorizationRequest.random() : "state",
            codeVerifier: AuthorizationRequest.random(),
            redirectURI: environment.redirectURI,
            scope: scope,
            resource: behaviour.mcp.resourceInAuthorizationRequest ? mcpAuthorization.resource : nil
        )
        pendingAuthorization = request
        return request.url(
            endpoint: mcpAuthorization.authorizationEndpoint,
            clientID: environment.client.id,
            pkce: behaviour.pkce
        )
    }

    /// MCP "Scope Selection Strategy": the challenge's scope, else every scope the Protected
    /// Resource Metadata lists, else none (never the authorization server's `scopes_supported`,
    /// which lists what the server can grant, not what this resource needs).
    static func scope(
        challenged: String?,
        metadata: JSONValue,
        serverMetadata: JSONValue,
        behaviour: MCPBehaviour
    ) -> String? {
        if behaviour.scopeFromChallenge, let challenged { return challenged }
        if let listed = scopes(listedIn: metadata) {
            return behaviour.scopeFromResourceMetadata ? listed.joined(separator: " ") : listed[0]
        }
        if let challenged { return challenged }
        guard behaviour.scopeFromServerMetadata else { return nil }
        return scopes(listedIn: serverMetadata)?.joined(separator: " ")
    }

    /// MCP "Refresh Tokens": a client MAY add `offline_access` to ask for a refresh token, but only
    /// when the authorization server lists it in `scopes_supported`; this one does then.
    static func withOfflineAccess(_ scope: String?, serverMetadata: JSONValue, behaviour: MCPBehaviour) -> String? {
        let listed = scopes(listedIn: serverMetadata)?.contains(offlineAccess) == true
        guard listed || !behaviour.offlineAccessOnlyWhenListed else { return scope }
        return union(scope, offlineAccess)
    }

    static let offlineAccess = "offline_access"

    /// The scopes of either, each once, in the order first met (RFC 6749 §3.3: a space-separated set).
    static func union(_ first: String?, _ second: String?) -> String? {
        var seen: Set<Substring> = []
        let words = [first, second].compactMap { $0 }.flatMap { $0.split(separator: " ") }.filter {
            seen.insert($0).inserted
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// A document's non-empty `scopes_supported`, `nil` when it lists none.
    private static func scopes(listedIn document: JSONValue) -> [String]? {
        guard case .array(let listed)? = document["scopes_supported"] else { return nil }
        let scopes = listed.compactMap(\.stringValue)
        return scopes.isEmpty ? nil : scopes
    }

    /// An MCP call on the signed-in session. A 403 `insufficient_scope` is answered by a step-up
    /// inside the call ("Step-Up Authorization Flow"): the user is asked for the scopes the session
    /// holds and the challenge's, and the call is sent again once the code is redeemed
    /// (`completeMCPAuthorization`), at most `MCPBehaviour.mostStepUps` times for the resource and
    /// operation before the failure is permanent.
    func mcpCall(method: String, url: String) async -> ClientAnswer {
        let call = MCPCallInProgress(method: method, url: url, stepUpScope: nil)
        if !behaviour.mcp.countsStepUpsAcrossCalls { mcpStepUps[call.attemptKey] = nil }
        return await send(call)
    }

    /// The call sent (again, after a step-up) on the session's current token.
    private func send(_ call: MCPCallInProgress) async -> ClientAnswer {
        let (method, url) = (call.method, call.url)
        let answer: Answer
        switch await callResource(method: "POST", url: url, body: MCPRequestMessage.body(method: method)) {
        case .success(let answered): answer = answered
        case .failure(let failure): return .outcome(.failure(failure))
        }
        guard answer.status == 403,
            let challenge = BearerChallenge.first(in: answer.headers["WWW-Authenticate"]),
            challenge.error == "insufficient_scope"
        else {
            if (200..<300).contains(answer.status) { mcpStepUps[call.attemptKey] = nil }
            return .outcome(.success(status: answer.status, body: answer.body))
        }
        let attempts = mcpStepUps[call.attemptKey, default: 0]
        guard behaviour.mcp.stepUp != .never, mcpAuthorization != nil,
            attempts < MCPBehaviour.mostStepUps || !behaviour.mcp.boundsStepUps
        else {
            let tried = attempts == 0 ? "" : " after \(attempts) re-authorization\(attempts == 1 ? "" : "s")"
            return .outcome(
                .failure(
                    ClientFailure(
                        .oauthError,
                        oauthError: "insufficient_scope",
                        status: 403,
                        message:
                            "the MCP server refused \(method) for want of scope '\(challenge.scope ?? "")'\(tried) (RFC 6750 §3.1)"
                    )
                )
            )
        }
        mcpStepUps[call.attemptKey] = attempts + 1
        let scope: String? =
            switch behaviour.mcp.stepUp {
            case .challengedOnly: challenge.scope
            default: Self.union(mcpAuthorization?.scope, challenge.scope)
            }
        var waiting = call
        waiting.stepUpScope = scope
        mcpCallInProgress = waiting
        return .needsAuthorization(url: authorizationRequestURL(scope: scope))
    }

    /// The redirect of an authorization: a step-up's ends in the call it interrupted, sent again
    /// with the new token (which may need the user once more); any other's is the sign-in's outcome.
    func completeMCPAuthorization(redirectURL: String) async -> ClientAnswer {
        let completed = await completeAuthorization(redirectURL: redirectURL)
        guard let call = mcpCallInProgress else { return .outcome(completed) }
        mcpCallInProgress = nil
        guard case .success = completed else { return .outcome(completed) }
        mcpAuthorization?.scope = call.stepUpScope
        return await send(call)
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

    /// The first of `urls` that answers 200 with a JSON object, the others tried in turn.
    func document(at urls: [String]) async -> Result<MCPDocumentSearch, ClientFailure> {
        var answers: [String] = []
        for url in urls {
            do {
                let answer = try await exchange(HTTPClientRequest(url: url))
                if answer.status == 200, let document = JSONValue.parse(answer.body), case .object = document {
                    return .success(.found(document))
                }
                answers.append("\(url) (\(answer.status))")
            } catch {
                return .failure(Self.transportFailure(error))
            }
        }
        return .success(.notFound(answers: answers))
    }

    static func noDocument(_ what: String, answers: [String]) -> ClientFailure {
        ClientFailure(.protocolViolation, message: "no \(what) found at " + answers.joined(separator: ", "))
    }

    static func quoted(_ value: JSONValue?) -> String {
        value?.stringValue.map { "'\($0)'" } ?? "absent"
    }
}
