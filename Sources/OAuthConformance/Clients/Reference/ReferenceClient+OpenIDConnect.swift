import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1
import NIOSSL

/// OpenID Connect sign-in (OIDC Core §3.1): the relying party found through discovery, the ID
/// token validated before any token is kept, userinfo about the signed-in user only.
extension ReferenceClient {
    func signInURL() async -> Result<String, ClientFailure> {
        switch await openIDRelyingParty().prepareSignIn() {
        case .success(let nonce): return await startAuthorization(nonce: nonce)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// A sign-in's redirect is read like any authorization response; the redemption then validates
    /// the ID token against the nonce of the pending request.
    func completeSignIn(redirectURL: String) async -> ClientOutcome {
        guard pendingAuthorization?.nonce != nil else {
            return .failure(
                ClientFailure(.protocolViolation, message: "a sign-in response arrived, but no sign-in is pending")
            )
        }
        return await completeAuthorization(redirectURL: redirectURL)
    }

    /// The userinfo endpoint is a protected resource: the token is attached, refreshed and replayed
    /// as for any call; only an answer about the signed-in user is accepted.
    func userinfo() async -> ClientOutcome {
        guard behaviour.offersUserinfo else {
            return .failure(
                ClientFailure(.unsupported, message: "this client leaves the userinfo call to the application")
            )
        }
        guard let relyingParty else {
            return .failure(ClientFailure(.authorizationRequired, message: "nobody is signed in: sign in first"))
        }
        let endpoint: String
        switch await relyingParty.userinfoEndpoint() {
        case .success(let found): endpoint = found
        case .failure(let failure): return .failure(failure)
        }
        let answer = await request(method: "GET", url: endpoint)
        guard case .success(let status, let body) = answer, status == 200 else {
            if case .success(let status, _) = answer {
                return .failure(
                    ClientFailure(.userinfo, message: "the userinfo endpoint answered \(status), not the user's claims")
                )
            }
            return answer
        }
        switch await relyingParty.userinfoClaims(from: body) {
        case .success(let claims): return .success(status: 200, body: claims)
        case .failure(let failure): return .failure(failure)
        }
    }

    func identity() async -> SignedInIdentity? {
        await relyingParty?.identity
    }

    func openIDRelyingParty() -> OpenIDRelyingParty {
        if let relyingParty { return relyingParty }
        let made = OpenIDRelyingParty(
            registration: .init(
                issuer: environment.endpoints.issuer,
                configurationURL: environment.endpoints.openIDConfiguration,
                clientID: environment.client.id,
                clientSecret: environment.clientSecret,
                signingAlgorithm: environment.idTokenSigningAlgorithm
            ),
            behaviour: behaviour.openIDConnect,
            now: now,
            // Weak: the relying party lives inside this client and must not keep it alive.
            get: { [weak self] url in
                guard let self else { throw CancellationError() }
                return try await self.get(url)
            }
        )
        relyingParty = made
        return made
    }

    /// A plain GET through the client's own transport (pins and redirect policy included).
    func get(_ url: String) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let answer = try await exchange(request)
        return (answer.status, answer.body)
    }
}
