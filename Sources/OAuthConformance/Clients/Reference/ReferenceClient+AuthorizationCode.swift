import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1
import NIOSSL

/// The authorization code flow (RFC 6749 §4.1): PKCE S256, `state` and `iss` checked, the
/// request pushed first when the provider takes pushes (RFC 9126).
extension ReferenceClient {
    func authorizationURL() async -> Result<String, ClientFailure> {
        await startAuthorization(nonce: nil)
    }

    /// - Parameter redirectURI: where the provider is to send the browser back; the environment's
    ///   unless a native app's listener chose its own port (`beginNativeSignIn`).
    func startAuthorization(nonce: String?, redirectURI: String? = nil) async -> Result<String, ClientFailure> {
        // A sign-in of another kind ends the MCP session's hold on the token endpoint.
        mcpAuthorization = nil
        let request = AuthorizationRequest(
            state: behaviour.unguessableState ? AuthorizationRequest.random() : "state",
            codeVerifier: AuthorizationRequest.random(),
            redirectURI: redirectURI ?? environment.redirectURI,
            nonce: nonce
        )
        pendingAuthorization = request
        let clientID = environment.client.id
        let endpoint = environment.endpoints.authorization
        guard let pusher = authorizationPusher() else {
            let url = request.url(endpoint: endpoint, clientID: clientID, pkce: behaviour.pkce)
            guard behaviour.keepsSecretOffTheFrontChannel else {
                let secret = environment.client.secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
                return .success(url + "&client_secret=" + (secret ?? ""))
            }
            return .success(url)
        }
        if !behaviour.pushesEveryAuthorization, let pushedURL { return .success(pushedURL) }
        let pushed = await pusher.push(
            request.parameters(clientID: clientID, pkce: behaviour.pkce),
            clientID: clientID,
            authorizationEndpoint: endpoint
        )
        if case .failure = pushed, behaviour.fallsBackToFrontChannel {
            // The defect's application sends the request the old way when the push fails.
            return .success(request.url(endpoint: endpoint, clientID: clientID, pkce: behaviour.pkce))
        }
        pushedURL = try? pushed.get()
        return pushed
    }

    /// RFC 9126: made when the environment names a pushed authorization request endpoint.
    func authorizationPusher() -> AuthorizationPusher? {
        guard behaviour.pushesAuthorizationRequests, let endpoint = environment.endpoints.pushedAuthorization else {
            return nil
        }
        return AuthorizationPusher(endpointURL: endpoint) { [weak self] url, form in
            guard let self else { return .failure(ClientFailure(.unexpected, message: "the client is gone")) }
            return await self.pushAuthorization(url, form)
        }
    }

    func pushAuthorization(
        _ url: String,
        _ fields: [(String, String)]
    ) async -> Result<(Int, String), ClientFailure> {
        let request: HTTPClientRequest
        switch await authenticatedPost(to: url, fields) {
        case .success(let built): request = built.0
        case .failure(let failure): return .failure(failure)
        }
        do {
            let answer = try await exchange(request)
            return .success((answer.status, answer.body))
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    func completeAuthorization(redirectURL: String) async -> ClientOutcome {
        // One redirect per request: a replayed redirect finds nothing pending.
        guard let request = pendingAuthorization else {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message: "an authorization response arrived, but no authorization request is pending"
                )
            )
        }
        pendingAuthorization = nil
        switch request.read(
            redirect: redirectURL,
            // The environment's provider sends iss (its metadata says so); an MCP client learned
            // from discovery whether its authorization server does.
            issuer: mcpAuthorization?.expectedIssuer
                ?? ExpectedIssuer(identifier: environment.endpoints.issuer, requiredInResponse: true),
            behaviour: behaviour
        ) {
        case .failure(let failure):
            return .failure(failure)
        case .success(.error(let code, let description)):
            return .failure(
                ClientFailure(
                    ErrorCategory(oauthError: code),
                    oauthError: code,
                    message: "the authorization request was refused: \(code)\(description.map { " (\($0))" } ?? "")"
                )
            )
        case .success(.code(let code)):
            var form = [
                ("grant_type", GrantType.authorizationCode.rawValue), ("code", code),
                ("redirect_uri", request.redirectURI),
            ]
            if behaviour.pkce != .none { form.append(("code_verifier", request.codeVerifier)) }
            return await obtainTokens(form, grant: .authorizationCode, signInNonce: request.nonce)
        }
    }
}
