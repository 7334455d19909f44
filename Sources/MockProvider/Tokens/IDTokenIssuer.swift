import Foundation

/// Issues the ID token of a token response (OpenID Connect Core §2, §3.1.3.3, §12.2): the claims of
/// the sign-in the grant began with, signed with the policy's algorithm by the key in use, unless a
/// rule's `IDTokenAlteration` says otherwise.
struct IDTokenIssuer: Sendable {
    let settings: ProviderSettings
    let ledger: IDTokenLedger
    let clock: VirtualClock

    /// The compact JWS for this grant, or `nil` when the grant did not begin with scope `openid`.
    /// - Parameter echoNonce: the code exchange echoes the authorization request's nonce; a
    ///   refresh does not (OpenID Connect Core §12.2).
    func issue(
        for grant: TokenLedger.Grant,
        echoNonce: Bool,
        issuer: String,
        alteration: IDTokenAlteration?,
        at now: Duration
    ) -> String? {
        guard let session = ledger.session(family: grant.access.family) else { return nil }
        let claims = self.claims(
            session,
            accessToken: grant.access.value,
            echoNonce: echoNonce,
            issuer: issuer,
            at: now
        )
        let issued = ledger.record { ordinal in
            let rotated = settings.idTokens.rotation?.hasRotated(at: now, idTokensIssued: ordinal) ?? false
            let signature = IDTokenSignature(
                policy: settings.idTokens.algorithm,
                signing: alteration?.signing,
                rotated: rotated,
                clientSecret: settings.client.secret
            )
            var header: [String: JSONValue] = ["alg": .string(signature.algorithm), "typ": .string("JWT")]
            header["kid"] = signature.keyID.map(JSONValue.string)
            switch alteration?.keyID {
            case .absent: header["kid"] = nil
            case .replace(let kid): header["kid"] = .string(kid)
            case nil: break
            }
            let altered =
                alteration.map {
                    finish(
                        $0.apply(
                            to: claims,
                            now: now,
                            clientClockSkew: settings.clientIDTokenClockSkew,
                            unixTime: unixTime
                        ),
                        $0
                    )
                } ?? claims
            let value = CompactJWS.assemble(header: .object(header), claims: .object(altered), sign: signature.sign)
            return IssuedIDToken(
                ordinal: ordinal,
                value: value,
                header: .object(header),
                claims: .object(altered),
                signedWith: signature.description,
                accessToken: grant.access.value,
                issuedAt: now,
                validUntil: alteration == nil ? now + settings.idTokens.lifetime : nil
            )
        }
        return issued.value
    }

    private func claims(
        _ session: OpenIDSession,
        accessToken: String,
        echoNonce: Bool,
        issuer: String,
        at now: Duration
    ) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(issuer),
            "sub": .string(session.subject),
            "aud": .string(settings.client.id),
            "exp": .integer(unixTime(now + settings.idTokens.lifetime)),
            "iat": .integer(unixTime(now)),
            "auth_time": .integer(unixTime(session.authTime)),
            "at_hash": .string(CompactJWS.leftHalfHash(of: accessToken)),
        ]
        if echoNonce, let nonce = session.nonce { claims["nonce"] = .string(nonce) }
        return claims
    }

    /// OpenID Connect Core §2: an `aud` of several values comes with `azp`, the client, unless the
    /// alteration set or omitted `azp` itself.
    private func finish(_ claims: [String: JSONValue], _ alteration: IDTokenAlteration) -> [String: JSONValue] {
        guard case .array(let audiences)? = claims["aud"], audiences.count > 1, claims["azp"] == nil,
            !alteration.omit.contains("azp")
        else { return claims }
        var finished = claims
        finished["azp"] = .string(settings.client.id)
        return finished
    }

    private func unixTime(_ instant: Duration) -> Int {
        Int(clock.date(at: instant).timeIntervalSince1970)
    }
}
