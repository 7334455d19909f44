import Foundation

/// The claims half of ID token validation (OIDC Core §2, §3.1.3.7, §12.2), run once the signature
/// check passed: each rule in its own method, in the order of §3.1.3.7, each refusing with its own
/// reason, each skipped only by the one `OpenIDConnectBehaviour` knob that names it.
struct IDTokenClaimsCheck {
    let registration: IDTokenValidator.Registration
    let behaviour: OpenIDConnectBehaviour
    let now: Date

    private var skew: TimeInterval { TimeInterval(behaviour.allowedClockSkew.components.seconds) }

    func check(
        _ claims: IDTokenClaimSet,
        signedWith algorithm: String,
        accessToken: String?,
        context: IDTokenValidator.Context
    ) -> Result<ValidatedIDToken, OpenIDConnectRefusal> {
        do {
            let issuer = try checkIssuer(claims)
            let audiences = try checkAudience(claims)
            let authorizedParty = try checkAuthorizedParty(claims, audiences: audiences)
            let expiresAt = try checkExpiry(claims)
            let issuedAt = try checkIssuedAt(claims)
            guard let subject = claims.string("sub"), !subject.isEmpty else {
                throw OpenIDConnectRefusal.subjectMissing
            }
            let identity = ValidatedIDToken(
                issuer: issuer,
                subject: subject,
                audiences: audiences,
                authorizedParty: authorizedParty,
                expiresAt: expiresAt,
                issuedAt: issuedAt,
                claims: claims.members
            )
            switch context {
            case .authentication(let nonce): try checkNonce(claims, sent: nonce)
            case .refresh(let original): try checkContinuity(of: identity, with: original)
            }
            try checkAccessTokenHash(claims, algorithm: algorithm, accessToken: accessToken)
            return .success(identity)
        } catch let refusal as OpenIDConnectRefusal {
            return .failure(refusal)
        } catch {
            return .failure(.malformed("\(error)"))
        }
    }

    /// Step 2: exactly the issuer, compared as strings (no normalisation).
    private func checkIssuer(_ claims: IDTokenClaimSet) throws -> String {
        guard let issuer = claims.string("iss"), issuer == registration.issuer else {
            throw OpenIDConnectRefusal.issuerMismatch(found: claims.string("iss"), expected: registration.issuer)
        }
        return issuer
    }

    /// Step 3: `aud` holds the client_id, alone or among others.
    private func checkAudience(_ claims: IDTokenClaimSet) throws -> [String] {
        let audiences = claims.audiences ?? []
        if behaviour.checksAudience, !audiences.contains(registration.clientID) {
            throw OpenIDConnectRefusal.audienceLacksClient(found: audiences, clientID: registration.clientID)
        }
        return audiences
    }

    /// Steps 4–5 as OIDC Core 1.0 (errata set 1) writes them: several audiences need an `azp`, and
    /// an `azp` must be this client, so a token issued to another party is never taken for ours.
    private func checkAuthorizedParty(_ claims: IDTokenClaimSet, audiences: [String]) throws -> String? {
        let member = claims.members["azp"]
        guard behaviour.checksAuthorizedParty else { return member?.stringValue }
        if let member {
            guard member.stringValue == registration.clientID else {
                throw OpenIDConnectRefusal.authorizedPartyMismatch(
                    found: member.stringValue ?? member.serialized(),
                    clientID: registration.clientID
                )
            }
            return registration.clientID
        }
        if audiences.count > 1 { throw OpenIDConnectRefusal.authorizedPartyMissing(audiences: audiences) }
        return nil
    }

    /// Step 9: now is before `exp`, give or take the allowed skew.
    private func checkExpiry(_ claims: IDTokenClaimSet) throws -> Date? {
        let expiresAt = claims.date("exp")
        guard behaviour.checksExpiry else { return expiresAt }
        guard let expiresAt else { throw OpenIDConnectRefusal.expiryMissing }
        guard now < expiresAt.addingTimeInterval(skew) else {
            throw OpenIDConnectRefusal.expired(expiresAt: expiresAt, now: now, allowedSkew: behaviour.allowedClockSkew)
        }
        return expiresAt
    }

    /// Step 10 and §2: `iat` is required, and a token from the future is refused. How old a token
    /// may be is the client's choice; the reference client relies on `exp` for that.
    private func checkIssuedAt(_ claims: IDTokenClaimSet) throws -> Date? {
        let issuedAt = claims.date("iat")
        guard behaviour.checksIssuedAt else { return issuedAt }
        guard let issuedAt else { throw OpenIDConnectRefusal.issuedAtMissing }
        guard issuedAt <= now.addingTimeInterval(skew) else {
            throw OpenIDConnectRefusal.issuedInFuture(
                issuedAt: issuedAt,
                now: now,
                allowedSkew: behaviour.allowedClockSkew
            )
        }
        return issuedAt
    }

    /// Step 11: when a nonce was sent, the token carries exactly it.
    private func checkNonce(_ claims: IDTokenClaimSet, sent: String?) throws {
        guard behaviour.checksNonce, let sent else { return }
        guard let received = claims.string("nonce") else { throw OpenIDConnectRefusal.nonceMissing }
        guard received == sent else { throw OpenIDConnectRefusal.nonceMismatch }
    }

    /// §12.2: a refreshed ID token speaks of the same sign-in: same `iss`, `sub`, `aud` and `azp`.
    /// No nonce is required, since a refresh is no authentication request.
    private func checkContinuity(of refreshed: ValidatedIDToken, with original: ValidatedIDToken) throws {
        guard refreshed.issuer == original.issuer else {
            throw OpenIDConnectRefusal.issuerChangedOnRefresh(original: original.issuer, found: refreshed.issuer)
        }
        if behaviour.checksSubjectOnRefresh, refreshed.subject != original.subject {
            throw OpenIDConnectRefusal.subjectChangedOnRefresh(original: original.subject, found: refreshed.subject)
        }
        guard Set(refreshed.audiences) == Set(original.audiences) else {
            throw OpenIDConnectRefusal.audienceChangedOnRefresh(
                original: original.audiences,
                found: refreshed.audiences
            )
        }
        guard refreshed.authorizedParty == original.authorizedParty else {
            throw OpenIDConnectRefusal.authorizedPartyChangedOnRefresh(
                original: original.authorizedParty,
                found: refreshed.authorizedParty
            )
        }
    }

    /// §3.2.2.9, applied to the code flow as §3.1.3.8 allows: an `at_hash` that is present binds
    /// the ID token to the access token beside it; absent is allowed. The hash is the signing
    /// algorithm's, and `none` has none: an unsigned token (accepted only where the profile allows
    /// it) binds nothing, so its `at_hash` is not checked.
    private func checkAccessTokenHash(_ claims: IDTokenClaimSet, algorithm: String, accessToken: String?) throws {
        guard behaviour.checksAccessTokenHash, algorithm != "none", let claimed = claims.members["at_hash"] else {
            return
        }
        guard let accessToken, let algorithm = IDTokenSigningAlgorithm(rawValue: algorithm),
            claimed.stringValue == algorithm.accessTokenHash(of: accessToken)
        else { throw OpenIDConnectRefusal.accessTokenHashMismatch }
    }
}
