import Foundation

/// Why the reference client refused an ID token, a discovery document or a userinfo response.
/// Each case names the one rule that was broken, so a report says which check caught the provider
/// (or, for a defective client, which check it skipped). Values are quoted where they identify
/// something (issuer, audience, subject, key id), never tokens, nonces or secrets.
public enum OpenIDConnectRefusal: Error, Sendable, Equatable {
    // Structure and JOSE header (RFC 7515, RFC 7516, RFC 8725)
    case malformed(String)
    case encrypted
    case unsigned
    case algorithmNotRegistered(found: String, registered: String)
    case criticalHeaderNotUnderstood([String])

    // Keys (OIDC Core §10.1.1, RFC 7517)
    case keySetUnavailable(String)
    case unknownKeyID(String, fetchedForThisToken: Bool)
    case keyNotUsable(keyID: String, algorithm: String)
    case noKeyForAlgorithm(String, fetchedForThisToken: Bool)
    case severalKeysAndNoKeyID(algorithm: String, candidates: Int)
    case noClientSecret
    case clientSecretTooShort(bytes: Int)
    case signatureInvalid(keyID: String?)

    // Claims (OIDC Core §2, §3.1.3.7)
    case issuerMismatch(found: String?, expected: String)
    case audienceLacksClient(found: [String], clientID: String)
    case authorizedPartyMissing(audiences: [String])
    case authorizedPartyMismatch(found: String, clientID: String)
    case expiryMissing
    case expired(expiresAt: Date, now: Date, allowedSkew: Duration)
    case issuedAtMissing
    case issuedInFuture(issuedAt: Date, now: Date, allowedSkew: Duration)
    case subjectMissing
    case nonceMissing
    case nonceMismatch
    case accessTokenHashMismatch

    // Refresh (OIDC Core §12.2)
    case issuerChangedOnRefresh(original: String, found: String)
    case subjectChangedOnRefresh(original: String, found: String)
    case audienceChangedOnRefresh(original: [String], found: [String])
    case authorizedPartyChangedOnRefresh(original: String?, found: String?)

    // Discovery (Discovery 1.0 §4.3) and userinfo (OIDC Core §5.3.2)
    case discoveryDocumentUnreadable(String)
    case discoveryIssuerMismatch(found: String?, fetchedFor: String)
    case userinfoUnreadable(String)
    case userinfoSubjectMismatch(found: String?, idTokenSubject: String)

    /// What the client reports: a refused ID token or userinfo response in its own category, a
    /// refused discovery document as the provider's protocol violation.
    public var clientFailure: ClientFailure {
        ClientFailure(category, message: description)
    }

    public var category: ErrorCategory {
        switch self {
        case .discoveryDocumentUnreadable, .discoveryIssuerMismatch: .protocolViolation
        case .userinfoUnreadable, .userinfoSubjectMismatch: .userinfo
        default: .idToken
        }
    }
}

extension OpenIDConnectRefusal: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformed(let detail):
            "the ID token is not a compact JWS: \(detail) (RFC 7515 §7.1)"
        case .encrypted:
            "the ID token is encrypted (JWE), but this client registered no ID token encryption (OIDC Core §3.1.3.7 step 1)"
        case .unsigned:
            "the ID token is unsigned (alg: none); this client accepts signed ID tokens only (RFC 8725 §3.1)"
        case .algorithmNotRegistered(let found, let registered):
            "the ID token is signed with \(found), not with \(registered), the algorithm this client registered (OIDC Core §3.1.3.7 step 7, RFC 8725 §3.1)"
        case .criticalHeaderNotUnderstood(let names):
            "the ID token's header marks \(Self.list(names)) critical, an extension this client does not understand (RFC 7515 §4.1.11)"
        case .keySetUnavailable(let detail):
            "the provider's signing keys could not be obtained: \(detail) (OIDC Core §10.1.1)"
        case .unknownKeyID(let kid, let fetched):
            "the ID token names signing key '\(kid)', which the provider's JWKS does not hold"
                + (fetched ? ", even as fetched for this token" : "; the JWKS was not fetched again")
                + " (OIDC Core §10.1.1)"
        case .keyNotUsable(let kid, let algorithm):
            "the ID token names signing key '\(kid)', which is not a key for \(algorithm) (RFC 7517 §4.1, §4.4)"
        case .noKeyForAlgorithm(let algorithm, let fetched):
            "the ID token names no key (kid), and the provider's JWKS holds no \(algorithm) key"
                + (fetched ? ", even as fetched for this token" : "; the JWKS was not fetched again")
                + " (OIDC Core §10.1)"
        case .severalKeysAndNoKeyID(let algorithm, let candidates):
            "the ID token names no key (kid), and the provider's JWKS holds \(candidates) \(algorithm) keys; refusing to guess (OIDC Core §10.1)"
        case .noClientSecret:
            "the ID token is signed with HS256, keyed with the client secret, but this client has no client secret (OIDC Core §10.1)"
        case .clientSecretTooShort(let bytes):
            "the ID token is signed with HS256, but the client secret has \(bytes) bytes, too short to key it: HS256 needs at least 32 (RFC 7518 §3.2)"
        case .signatureInvalid(let kid):
            "the ID token's signature does not verify with the provider's key"
                + (kid.map { " '\($0)'" } ?? "") + " (OIDC Core §3.1.3.7 step 6)"
        case .issuerMismatch(let found, let expected):
            "the ID token's iss (\(Self.quoted(found))) is not the issuer \(expected) (OIDC Core §3.1.3.7 step 2)"
        case .audienceLacksClient(let found, let clientID):
            "the ID token's aud (\(found.isEmpty ? "none" : Self.list(found))) does not contain this client, '\(clientID)' (OIDC Core §3.1.3.7 step 3)"
        case .authorizedPartyMissing(let audiences):
            "the ID token has several audiences (\(Self.list(audiences))) and no azp naming this client (OIDC Core §3.1.3.7 step 4)"
        case .authorizedPartyMismatch(let found, let clientID):
            "the ID token's azp ('\(found)') is not this client, '\(clientID)' (OIDC Core §3.1.3.7 step 5)"
        case .expiryMissing:
            "the ID token has no exp (OIDC Core §2)"
        case .expired(let expiresAt, let now, let skew):
            "the ID token expired at \(Self.time(expiresAt)); it is \(Self.time(now)), beyond the allowed clock skew of \(Self.seconds(skew)) (OIDC Core §3.1.3.7 step 9)"
        case .issuedAtMissing:
            "the ID token has no iat (OIDC Core §2)"
        case .issuedInFuture(let issuedAt, let now, let skew):
            "the ID token was issued at \(Self.time(issuedAt)), in the future: it is \(Self.time(now)), beyond the allowed clock skew of \(Self.seconds(skew)) (OIDC Core §3.1.3.7 step 10)"
        case .subjectMissing:
            "the ID token has no sub (OIDC Core §2)"
        case .nonceMissing:
            "the ID token has no nonce, but this client sent one in its authentication request (OIDC Core §3.1.3.7 step 11)"
        case .nonceMismatch:
            "the ID token's nonce is not the one this client sent in its authentication request (OIDC Core §3.1.3.7 step 11)"
        case .accessTokenHashMismatch:
            "the ID token's at_hash does not match the access token it came with (OIDC Core §3.2.2.9)"
        case .issuerChangedOnRefresh(let original, let found):
            "the refreshed ID token's iss ('\(found)') is not the original's, '\(original)' (OIDC Core §12.2)"
        case .subjectChangedOnRefresh(let original, let found):
            "the refreshed ID token's sub ('\(found)') is not the original's, '\(original)': it is another user (OIDC Core §12.2)"
        case .audienceChangedOnRefresh(let original, let found):
            "the refreshed ID token's aud (\(Self.list(found))) is not the original's, \(Self.list(original)) (OIDC Core §12.2)"
        case .authorizedPartyChangedOnRefresh(let original, let found):
            "the refreshed ID token's azp (\(Self.quoted(found))) is not the original's, \(Self.quoted(original)) (OIDC Core §12.2)"
        case .discoveryDocumentUnreadable(let detail):
            "the discovery document cannot be used: \(detail) (OpenID Connect Discovery §4.2)"
        case .discoveryIssuerMismatch(let found, let fetchedFor):
            "the discovery document's issuer (\(Self.quoted(found))) is not \(fetchedFor), the issuer it was fetched for (OpenID Connect Discovery §4.3)"
        case .userinfoUnreadable(let detail):
            "the userinfo response cannot be used: \(detail) (OIDC Core §5.3.2)"
        case .userinfoSubjectMismatch(let found, let idTokenSubject):
            "the userinfo response's sub (\(Self.quoted(found))) is not the ID token's, '\(idTokenSubject)'; its claims are discarded (OIDC Core §5.3.2)"
        }
    }

    private static func quoted(_ value: String?) -> String {
        value.map { "'\($0)'" } ?? "none"
    }

    private static func list(_ values: [String]) -> String {
        values.map { "'\($0)'" }.joined(separator: ", ")
    }

    private static func time(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    private static func seconds(_ duration: Duration) -> String {
        "\(duration.components.seconds) s"
    }
}
