import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore

/// How an MCP client gets its client ID where the provider holds no registration for it (MCP
/// authorization 2026-07-28, "Client Registration"), in the spec's order: the pre-registered one;
/// else its Client ID Metadata Document's URL where the authorization server advertises
/// `client_id_metadata_document_supported`; else Dynamic Client Registration (RFC 7591) at the
/// `registration_endpoint`; else an error. A registration refused, or answered without a
/// `client_id`, ends the sign-in with an error before any authorization request. Each client ID is
/// kept by the issuer of the server that issued it ("Authorization Server Binding"): the
/// pre-registered one is the environment's `issuer`'s, and at another server the client has none.
extension ReferenceClient {
    /// Makes the client ID for `issuer` the one the client signs in with; `nil` once it is, or the
    /// failure that ends the sign-in.
    func obtainMCPClientID(issuer: String, serverMetadata: JSONValue) async -> ClientFailure? {
        let order = behaviour.mcp.registrationOrder
        let registrationEndpoint = serverMetadata["registration_endpoint"]?.stringValue
        if environment.isPreRegistered, mcpRegistrations[environment.endpoints.issuer] == nil {
            mcpRegistrations[environment.endpoints.issuer] = MCPClientRegistration(
                issuer: environment.endpoints.issuer,
                client: environment.client,
                authentication: environment.clientAuthentication
            )
        }
        let kept =
            mcpRegistrations[issuer]
            ?? (behaviour.mcp.registrationsBoundToTheirServer ? nil : mcpRegistrations[latestMCPIssuer ?? ""])
            ?? (behaviour.mcp.preRegistrationBoundToItsServer || !environment.isPreRegistered
                ? nil : mcpRegistrations[environment.endpoints.issuer])
        if let kept, !(environment.isPreRegistered && order == .registersDespitePreRegistration) {
            adopt(kept)
            return nil
        }
        if environment.isPreRegistered, issuer == environment.endpoints.issuer {
            // The defect's client registers wherever it can, as if it had no client ID.
            guard order == .registersDespitePreRegistration, let registrationEndpoint else { return nil }
            return await register(at: registrationEndpoint, issuer: issuer, serverMetadata: serverMetadata)
        }
        let advertisesDocuments = serverMetadata["client_id_metadata_document_supported"] == .bool(true)
        let prefersRegistration = order == .dynamicBeforeMetadataDocument && registrationEndpoint != nil
        if let documentURL = environment.clientIDMetadataDocumentURL, !prefersRegistration,
            advertisesDocuments || order == .metadataDocumentUnadvertised
        {
            // "Client ID Metadata Documents": the URL is the id of a public client (`none`).
            adopt(
                MCPClientRegistration(
                    issuer: issuer,
                    client: ClientCredentials(id: documentURL, secret: ""),
                    authentication: .publicClient
                )
            )
            return nil
        }
        guard let registrationEndpoint else {
            if environment.isPreRegistered {
                // "Authorization Server Binding": its credentials are another server's, and not tried here.
                return ClientFailure(
                    .invalidClient,
                    message:
                        "no client ID for \(issuer): the client is pre-registered with \(environment.endpoints.issuer) only, and this authorization server offers neither Client ID Metadata Documents\(environment.clientIDMetadataDocumentURL == nil ? " (the client has none)" : "") nor a registration_endpoint"
                )
            }
            return ClientFailure(
                .unsupported,
                message:
                    "no client ID for \(issuer): the client is not pre-registered there, and its metadata offers neither Client ID Metadata Documents\(environment.clientIDMetadataDocumentURL == nil ? " (the client has none)" : "") nor a registration_endpoint"
            )
        }
        return await register(at: registrationEndpoint, issuer: issuer, serverMetadata: serverMetadata)
    }

    private func register(at endpoint: String, issuer: String, serverMetadata: JSONValue) async -> ClientFailure? {
        let method: String?
        switch registrationAuthMethod(serverMetadata) {
        case .success(let chosen): method = chosen
        case .failure(let failure): return failure
        }
        switch await registerDynamically(at: endpoint, issuer: issuer, authMethod: method) {
        case .success(let registration):
            adopt(registration)
            return nil
        case .failure(let failure):
            return failure
        }
    }

    /// The registration the client signs in with now, the one `adopt` made its own last.
    var adoptedMCPRegistration: MCPClientRegistration? { latestMCPIssuer.flatMap { mcpRegistrations[$0] } }

    /// From now on the client is the one registered: its token requests authenticate as it.
    private func adopt(_ registration: MCPClientRegistration) {
        mcpRegistrations[registration.issuer] = registration
        latestMCPIssuer = registration.issuer
        environment.client = registration.client
        environment.clientAuthentication = registration.authentication
    }

    /// The `token_endpoint_auth_method` to ask for: one the authorization server offers (RFC 8414
    /// §2 `token_endpoint_auth_methods_supported`, whose default is `client_secret_basic`), in the
    /// client's order of preference (`MCPBehaviour.RegistrationAuthMethod.offered`); `nil` to
    /// leave the member out. A server that offers none of the client's methods ends the sign-in.
    private func registrationAuthMethod(_ serverMetadata: JSONValue) -> Result<String?, ClientFailure> {
        switch behaviour.mcp.registrationAuthMethod {
        case .alwaysNone: return .success("none")
        case .omitted: return .success(nil)
        case .offered: break
        }
        let offered: [String]
        switch serverMetadata["token_endpoint_auth_methods_supported"] {
        case nil: offered = ["client_secret_basic"]
        case .array(let listed)?: offered = listed.compactMap(\.stringValue)
        case let other?:
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message:
                        "the authorization server metadata's token_endpoint_auth_methods_supported is not a list: \(other.serialized()) (RFC 8414 §2)"
                )
            )
        }
        guard let method = Self.registrationAuthMethods.first(where: offered.contains) else {
            return .failure(
                ClientFailure(
                    .unsupported,
                    message:
                        "the authorization server offers \(offered.joined(separator: ", ")) at its token endpoint (token_endpoint_auth_methods_supported), none of the client's: \(Self.registrationAuthMethods.joined(separator: ", "))"
                )
            )
        }
        return .success(method)
    }

    /// The methods the client registers with, by preference: a public client first, as a native
    /// app is (RFC 8252 §8.4), then the secret by HTTP Basic, which RFC 6749 §2.3.1 has every
    /// server support, then in the form.
    private static let registrationAuthMethods = ["none", "client_secret_basic", "client_secret_post"]

    /// RFC 7591 §3.1: the client's metadata as JSON, as a native app with a loopback redirect
    /// (MCP "Application Type and Redirect URI Constraints": `application_type` is required, and
    /// `native` for a loopback redirect URI), asking for `authMethod` (left out when `nil`).
    private func registerDynamically(
        at endpoint: String,
        issuer: String,
        authMethod: String?
    ) async -> Result<MCPClientRegistration, ClientFailure> {
        var metadata: [String: JSONValue] = [
            "client_name": .string("OAuthConformance reference client"),
            "redirect_uris": .array([.string(environment.redirectURI)]),
            "grant_types": .array(
                (behaviour.mcp.registersRefreshTokenGrant
                    ? ["authorization_code", "refresh_token"] : ["authorization_code"])
                    .map(JSONValue.string)
            ),
            "response_types": .array([.string("code")]),
        ]
        if let authMethod { metadata["token_endpoint_auth_method"] = .string(authMethod) }
        if behaviour.mcp.sendsApplicationType {
            metadata["application_type"] = .string(Self.isLoopback(environment.redirectURI) ? "native" : "web")
        }
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: JSONValue.object(metadata).serialized()))
        let answer: Answer
        do {
            answer = try await exchange(request)
        } catch {
            return .failure(Self.transportFailure(error))
        }
        let body = JSONValue.parse(answer.body)
        let handling = behaviour.mcp.registrationAnswer
        // RFC 7591 §3.2.2: a refusal is a 400 with an error code; any answer but 201 (or 200) is no registration.
        guard (200...201).contains(answer.status) || handling == .refusalIgnored else {
            let code = body?["error"]?.stringValue
            let description = body?["error_description"]?.stringValue
            return .failure(
                ClientFailure(
                    .oauthError,
                    oauthError: code,
                    status: answer.status,
                    message:
                        "the authorization server refused the client's registration (HTTP \(answer.status)\(code.map { ", \($0)" } ?? "")\(description.map { ": \($0)" } ?? "")) (RFC 7591 §3.2.2)"
                )
            )
        }
        // RFC 7591 §3.2.1: client_id is required in the answer; without it there is nothing to sign in as.
        let clientID = body?["client_id"]?.stringValue
        guard clientID?.isEmpty == false || handling != .checked else {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    status: answer.status,
                    message: "the registration's answer carries no client_id (RFC 7591 §3.2.1)"
                )
            )
        }
        // §3.2.1: the server may register another method than the one asked for; the registered one is used.
        let secret = body?["client_secret"]?.stringValue
        let authentication: ClientAuthenticationMethod
        // RFC 7591 §3.2.1: the answer holds the metadata as registered; one without the method
        // registered the one asked for, or §2's default.
        let askedMethod = authMethod ?? "client_secret_basic"
        let registeredMethod =
            behaviour.mcp.usesRegisteredAuthMethod
            ? body?["token_endpoint_auth_method"]?.stringValue ?? askedMethod : askedMethod
        switch registeredMethod {
        case "none": authentication = .publicClient
        case "client_secret_basic" where secret != nil, "client_secret_post" where secret != nil:
            authentication = .clientSecret
        case let other:
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    status: answer.status,
                    message:
                        "the client was registered with token_endpoint_auth_method \(other)\(secret == nil ? " and no client_secret" : ""), which it cannot authenticate with"
                )
            )
        }
        return .success(
            MCPClientRegistration(
                issuer: issuer,
                client: ClientCredentials(id: clientID ?? "", secret: secret ?? ""),
                authentication: authentication,
                postsSecret: registeredMethod == "client_secret_post"
            )
        )
    }

    private static func isLoopback(_ uri: String) -> Bool {
        guard let parts = URLComponents(string: uri), parts.scheme == "http" else { return false }
        return ["127.0.0.1", "localhost", "[::1]", "::1"].contains(parts.host ?? "")
    }
}
