import Foundation

/// The key a grant's tokens are bound to (RFC 9449 §5, §6).
struct DPoPBinding: Sendable {
    let key: String
    /// §5: a public client's refresh token is bound too.
    let refreshToo: Bool

    var refreshBoundKey: String? { refreshToo ? key : nil }
}

/// DPoP as the token endpoint and the resource apply it: each proof checked, refusals answered as
/// RFC 9449 §5, §7.1 and §9 show them, nonces demanded and rotated as the policy says.
struct DPoPGate: Sendable {
    let policy: DPoPPolicy
    let verifier: DPoPProofVerifier
    let nonces: DPoPNonces
    let origins: OriginBook

    /// What a token request's proof allows: no proof (bearer tokens), a binding, or a refusal.
    enum TokenRequestProof {
        case absent
        case bindsTo(DPoPBinding)
        /// The server issues bearer tokens all the same (`answers_bearer`).
        case acceptedUnbound
        /// The answer instead of tokens: `invalid_dpop_proof` or `use_dpop_nonce`.
        case refused(ProviderResponse)
    }

    /// §5: a token request with a `DPoP` header must carry a valid proof for the token endpoint.
    func checkTokenRequest(_ request: ProviderRequest) -> TokenRequestProof {
        guard request.header("DPoP") != nil else { return .absent }
        let target = (origins.current?.primary ?? "") + Endpoint.token.path
        switch verifier.verify(request, targetURI: target, accessToken: nil, nonce: demandedNonce(.token)) {
        case .failure(let refusal):
            return .refused(tokenEndpointRefusal(refusal))
        case .success(let proof):
            guard !policy.answersBearer else { return .acceptedUnbound }
            return .bindsTo(DPoPBinding(key: proof.keyThumbprint, refreshToo: policy.refreshTokensBound))
        }
    }

    /// The token of an `Authorization: DPoP …` header (§7.1; the scheme compares case-insensitively).
    static func dpopToken(of request: ProviderRequest) -> String? {
        request.header("Authorization").flatMap { ProviderRequest.credentials(ofScheme: "dpop", in: $0) }
    }

    /// §7.1: a bound token must come as `Authorization: DPoP` with a proof for this request, by
    /// the key it is bound to, carrying its `ath`; `nil` when the request may be served.
    /// - Parameter withDPoPScheme: the token came as `Authorization: DPoP`, not as a bearer token.
    func checkResourceRequest(_ request: ProviderRequest, token: IssuedToken, withDPoPScheme: Bool) -> ProviderResponse?
    {
        guard let boundKey = token.boundKey else {
            return withDPoPScheme ? resourceRefusal("invalid_token", "the access token is not DPoP-bound") : nil
        }
        guard withDPoPScheme else {
            return resourceRefusal("invalid_token", "a DPoP-bound access token goes with the DPoP scheme and a proof")
        }
        let target = (origins.current?.primary ?? "") + request.path
        switch verifier.verify(request, targetURI: target, accessToken: token.value, nonce: demandedNonce(.resource)) {
        case .failure(.invalidProof(let reason)):
            return resourceRefusal("invalid_dpop_proof", reason)
        case .failure(.nonceRequired(let reason)):
            return nonceChallenge(.resource, reason: reason, nonce: nonces.current(.resource))
        case .success(let proof):
            guard proof.keyThumbprint == boundKey else {
                return resourceRefusal("invalid_token", "the proof is signed by another key than the token is bound to")
            }
            return nil
        }
    }

    /// A rule's `dpop_nonce: renew`: the server moves to a new nonce and demands it.
    func renewedNonceDemand(at endpoint: Endpoint?) -> ProviderResponse {
        let server: DPoPPolicy.NonceServer = endpoint == .token ? .token : .resource
        return nonceChallenge(server, reason: "the server has a new nonce", nonce: nonces.renew(server))
    }

    /// After a success with a proof: §8.2's new nonce in the answer, when the current one is used up.
    func noteAccepted(_ server: DPoPPolicy.NonceServer, in response: inout ProviderResponse) {
        guard policy.nonceRequiredAt.contains(server), response.status < 300,
            let fresh = nonces.accepted(server, rotatesEvery: policy.nonceRotatesEvery)
        else { return }
        response.setHeader("DPoP-Nonce", to: fresh)
    }

    private func demandedNonce(_ server: DPoPPolicy.NonceServer) -> String? {
        policy.nonceRequiredAt.contains(server) ? nonces.current(server) : nil
    }

    private func tokenEndpointRefusal(_ refusal: DPoPProofVerifier.Refusal) -> ProviderResponse {
        switch refusal {
        case .invalidProof(let reason):
            .oauthError(ScriptedOAuthError(code: "invalid_dpop_proof", description: reason))
        case .nonceRequired(let reason):
            nonceChallenge(.token, reason: reason, nonce: nonces.current(.token))
        }
    }

    /// §8 at the token endpoint (400 `use_dpop_nonce`), §9 at the resource (401 with a DPoP challenge).
    private func nonceChallenge(_ server: DPoPPolicy.NonceServer, reason: String, nonce: String) -> ProviderResponse {
        let description = "a DPoP nonce is required: \(reason)"
        switch server {
        case .token:
            return .oauthError(
                ScriptedOAuthError(code: "use_dpop_nonce", description: description),
                extraHeaders: [HeaderField("DPoP-Nonce", nonce)]
            )
        case .resource:
            var response = resourceRefusal("use_dpop_nonce", description)
            response.headers.append(HeaderField("DPoP-Nonce", nonce))
            return response
        }
    }

    /// RFC 9449 §7.1: a `DPoP` challenge naming the algorithms the server takes.
    private func resourceRefusal(_ code: String, _ description: String) -> ProviderResponse {
        let quoted = description.filter { $0 != "\"" && $0 != "\\" }
        let algorithms = DPoPPolicy.signingAlgorithms.joined(separator: " ")
        return ProviderResponse(
            status: 401,
            headers: [
                HeaderField(
                    "WWW-Authenticate",
                    "DPoP algs=\"\(algorithms)\", error=\"\(code)\", error_description=\"\(quoted)\""
                )
            ]
        )
    }
}
