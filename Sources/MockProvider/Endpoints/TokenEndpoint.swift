import Foundation

/// The authorization server's token endpoint as RFC 6749 §3.2, §4.1.3, §4.3, §4.4, §5 and §6 and
/// RFC 7636 §4.6 describe it.
struct TokenEndpoint: Sendable {
    let settings: ProviderSettings
    let authenticator: ClientAuthenticator
    let ledger: TokenLedger
    let codes: AuthorizationCodes
    let idTokens: IDTokenIssuer
    let deviceCodes: DeviceCodes
    /// DPoP (RFC 9449 §5), when the scenario offers it.
    let dpop: DPoPGate?

    /// - Parameter idTokenAlteration: how to alter the ID token, when the response carries one.
    func serve(
        _ request: ProviderRequest,
        issuer: String,
        idTokenAlteration: IDTokenAlteration? = nil,
        at now: Duration
    ) -> ProviderResponse {
        if let refusal = authenticator.refusal(for: request) {
            return refusal
        }
        let proof = dpop?.checkTokenRequest(request) ?? .absent
        let binding: DPoPBinding?
        switch proof {
        case .refused(let refusal): return refusal
        case .absent, .acceptedUnbound: binding = nil
        case .bindsTo(let key): binding = key
        }
        var response = grantResponse(
            request,
            issuer: issuer,
            idTokenAlteration: idTokenAlteration,
            binding: binding,
            at: now
        )
        if case .absent = proof { return response }
        dpop?.noteAccepted(.token, in: &response)
        return response
    }

    /// The grant's answer, once the client is authenticated and its DPoP proof (if any) accepted.
    /// - Parameter binding: the DPoP key the new tokens are bound to.
    private func grantResponse(
        _ request: ProviderRequest,
        issuer: String,
        idTokenAlteration: IDTokenAlteration?,
        binding: DPoPBinding?,
        at now: Duration
    ) -> ProviderResponse {
        // The success response of a grant with the ID token of its family's OpenID session, if it
        // has one (OpenID Connect Core §3.1.3.3; for a refresh, §12.2, which echoes no nonce).
        func success(_ grant: TokenLedger.Grant, echoingNonce: Bool) -> ProviderResponse {
            let idToken = idTokens.issue(
                for: grant,
                echoNonce: echoingNonce,
                issuer: issuer,
                alteration: idTokenAlteration,
                at: now
            )
            return Self.success(grant, idToken: idToken)
        }
        // A user's grant: with scope openid the user signed in, and the grant's family carries the
        // OpenID session from then on. Without, no session to look up: the hot paths skip it.
        func userGrant(_ grant: TokenLedger.Grant, signingIn session: OpenIDSession?) -> ProviderResponse {
            guard let session else { return Self.success(grant, idToken: nil) }
            idTokens.ledger.beginSession(session, family: grant.access.family)
            return success(grant, echoingNonce: true)
        }
        guard let grantValue = request.formField("grant_type") else {
            return .oauthError(ScriptedOAuthError(code: "invalid_request", description: "grant_type is missing"))
        }
        guard let grant = GrantType(rawValue: grantValue) else {
            return .oauthError(
                ScriptedOAuthError(code: "unsupported_grant_type", description: "unsupported grant_type \(grantValue)")
            )
        }
        switch grant {
        case .authorizationCode:
            return redeemCode(request, binding: binding, at: now) { userGrant($0, signingIn: $1) }
        case .password:
            guard request.formField("username") == settings.user.username,
                request.formField("password") == settings.user.password
            else {
                return .oauthError(ScriptedOAuthError(code: "invalid_grant", description: "wrong username or password"))
            }
            // The user authenticated with the token request itself: scope openid signs them in now.
            let session =
                OpenIDScope.includesOpenID(request.formField("scope"))
                ? OpenIDSession(subject: settings.user.username, nonce: nil, authTime: now) : nil
            return userGrant(
                ledger.grant(
                    subject: settings.user.username,
                    scope: request.formField("scope"),
                    withRefreshToken: true,
                    at: now,
                    binding: binding
                ),
                signingIn: session
            )
        case .clientCredentials:
            guard settings.clientAuthentication.isConfidential else {
                // RFC 6749 §4.4: "The client credentials grant type MUST only be used by confidential clients."
                return .oauthError(
                    ScriptedOAuthError(
                        code: "unauthorized_client",
                        description:
                            "the client is registered as a public client (token_endpoint_auth_method none), and only a confidential client may use client_credentials (RFC 6749 §4.4)"
                    )
                )
            }
            // RFC 6749 §4.4.3: no refresh token for the client credentials grant; no user, so no ID token.
            return Self.success(
                ledger.grant(subject: settings.client.id, withRefreshToken: false, at: now, binding: binding),
                idToken: nil
            )
        case .refreshToken:
            guard let presented = request.formField("refresh_token") else {
                return .oauthError(ScriptedOAuthError(code: "invalid_request", description: "refresh_token is missing"))
            }
            if let bound = ledger.liveToken(presented, at: now).flatMap({ $0.kind == .refresh ? $0.boundKey : nil }),
                bound != binding?.key
            {
                // RFC 9449 §5: a bound refresh token is good only with a proof by its key.
                return .oauthError(
                    ScriptedOAuthError(
                        code: "invalid_grant",
                        description: "the refresh token is bound to a DPoP key; a proof by that key must come with it"
                    )
                )
            }
            guard let refreshed = ledger.refresh(with: presented, at: now, binding: binding) else {
                return .oauthError(
                    ScriptedOAuthError(
                        code: "invalid_grant",
                        description: "the refresh token is invalid, expired or revoked"
                    )
                )
            }
            return success(refreshed, echoingNonce: false)
        case .deviceCode:
            return pollDeviceCode(request, binding: binding, at: now) { userGrant($0, signingIn: $1) }
        case .tokenExchange, .jwtBearer:
            // The app server's grants; the provider itself exchanges nothing.
            return .oauthError(
                ScriptedOAuthError(code: "unsupported_grant_type", description: "unsupported grant_type \(grantValue)")
            )
        }
    }

    /// RFC 8628 §3.4–3.5: the answer to one poll for a device code's tokens.
    /// - Parameter answer: the success response for the tokens the approval bought, and the OpenID
    ///   session the user's approval began when the device asked for scope openid.
    private func pollDeviceCode(
        _ request: ProviderRequest,
        binding: DPoPBinding?,
        at now: Duration,
        answer: (TokenLedger.Grant, OpenIDSession?) -> ProviderResponse
    ) -> ProviderResponse {
        func error(_ code: String, _ description: String) -> ProviderResponse {
            .oauthError(ScriptedOAuthError(code: code, description: description))
        }
        guard let deviceCode = request.formField("device_code") else {
            return error("invalid_request", "device_code is missing")
        }
        switch deviceCodes.poll(
            deviceCode,
            at: now,
            policy: settings.deviceAuthorization,
            subject: settings.user.username
        ) {
        case .pending: return error("authorization_pending", "the user has not acted yet")
        case .slowDown: return error("slow_down", "polled before the interval passed; it is now 5 seconds longer")
        case .denied: return error("access_denied", "the user denied the authorization")
        case .expired: return error("expired_token", "the device code has expired")
        case .unknown: return error("invalid_grant", "the device code is unknown or was used")
        case .approved(let approval):
            return answer(
                ledger.grant(subject: approval.subject, withRefreshToken: true, at: now, binding: binding),
                approval.signsIn ? OpenIDSession(subject: approval.subject, nonce: nil, authTime: approval.at) : nil
            )
        }
    }

    /// - Parameter answer: the success response for the tokens the code bought, and the OpenID
    ///   session its authentication request began when its scope held openid.
    private func redeemCode(
        _ request: ProviderRequest,
        binding: DPoPBinding?,
        at now: Duration,
        answer: (TokenLedger.Grant, OpenIDSession?) -> ProviderResponse
    ) -> ProviderResponse {
        func invalidGrant(_ description: String) -> ProviderResponse {
            .oauthError(ScriptedOAuthError(code: "invalid_grant", description: description))
        }
        guard let value = request.formField("code") else {
            return .oauthError(ScriptedOAuthError(code: "invalid_request", description: "code is missing"))
        }
        let code: AuthorizationCode
        switch codes.redeem(value, at: now) {
        case .unknownOrExpired:
            return invalidGrant("the authorization code is invalid or expired")
        case .replayed(let family):
            // RFC 6749 §4.1.2: a code used twice revokes what its first use bought.
            ledger.revokeFamily(family)
            return invalidGrant("the authorization code was already used")
        case .fresh(let fresh):
            code = fresh
        }
        // RFC 6749 §4.1.3: the code was issued to the client redeeming it (which matters once
        // clients register during the scenario, each with an id of its own).
        let redeemer = request.formField("client_id") ?? request.basicCredentials?.id
        guard redeemer == nil || redeemer == code.clientID else {
            return invalidGrant("the authorization code was issued to another client")
        }
        guard code.redirectURI == nil || request.formField("redirect_uri") == code.redirectURI else {
            return invalidGrant("redirect_uri differs from the authorization request's")
        }
        let verifier = request.formField("code_verifier")
        switch (code.challenge, code.challengeMethod, verifier) {
        case (let challenge?, let method?, let verifier?):
            guard PKCE.isWellFormedVerifier(verifier),
                PKCE.verify(verifier: verifier, challenge: challenge, method: method)
            else {
                return invalidGrant("code_verifier does not match the code_challenge")
            }
        case (.some, _, nil):
            return invalidGrant("code_verifier is missing")
        case (nil, _, .some):
            // RFC 9700 §2.1.1: a verifier without a challenge is a PKCE downgrade attempt.
            return invalidGrant("code_verifier given but the authorization request had no code_challenge")
        default:
            break
        }
        let granted = ledger.grant(
            subject: code.subject,
            scope: code.scope,
            withRefreshToken: true,
            at: now,
            binding: binding
        )
        codes.markRedeemed(value, family: granted.access.family)
        return answer(
            granted,
            code.openID.map { OpenIDSession(subject: code.subject, nonce: $0.nonce, authTime: code.issuedAt) }
        )
    }

    /// RFC 6749 §5.1, with OpenID Connect Core §3.1.3.3's `id_token` when there is one, and
    /// RFC 8693 §2.2.1's `issued_token_type` for a token exchange.
    static func success(
        _ grant: TokenLedger.Grant,
        idToken: String?,
        issuedTokenType: String? = nil
    ) -> ProviderResponse {
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(5)
        members.append(("access_token", .string(grant.access.value)))
        if let expiresAt = grant.access.expiresAt {
            members.append(("expires_in", .integer(Int((expiresAt - grant.access.issuedAt).seconds.rounded()))))
        }
        if let idToken { members.append(("id_token", .string(idToken))) }
        if let issuedTokenType { members.append(("issued_token_type", .string(issuedTokenType))) }
        if let refresh = grant.refresh { members.append(("refresh_token", .string(refresh.value))) }
        // RFC 9449 §5: a bound access token is of type DPoP.
        members.append(("token_type", .string(grant.access.tokenType)))
        return .json(200, sortedMembers: members)
    }
}
