import Crypto
import Foundation

/// How the client authenticates at the token, revocation and introspection endpoints.
public enum ClientAuthenticationMethod: String, Sendable, Hashable, CaseIterable {
    /// RFC 6749 §2.3.1: the client secret, by HTTP Basic or in the form body.
    case clientSecret = "client_secret"
    /// RFC 7523 §2.2 and OpenID Connect Core §9: a JWT the client signs with its registered key
    /// (`RegisteredClientKey`), sent as `client_assertion`.
    case privateKeyJWT = "private_key_jwt"
    /// RFC 7523 §2.2 and OpenID Connect Core §9: a JWT the client MACs with its secret (HS256),
    /// sent as `client_assertion`; the secret itself never travels.
    case clientSecretJWT = "client_secret_jwt"
    /// RFC 7591 §2 `none`: a public client (RFC 6749 §2.1, RFC 8252 §8.4), which has no secret and
    /// no key. It identifies itself by `client_id` in the form and authenticates nowhere; the
    /// provider asks it for PKCE instead (RFC 9700 §2.1.1).
    case publicClient = "none"

    /// Whether the client authenticates with a `client_assertion`.
    public var usesAssertions: Bool { self == .privateKeyJWT || self == .clientSecretJWT }

    /// Whether the client has a secret of its own to authenticate with.
    public var isConfidential: Bool { self != .publicClient }
}

/// Verifies `private_key_jwt` and `client_secret_jwt` client assertions as RFC 7523 §3 says an
/// authorization server must: the signature by the registered key (ES256) or the MAC with the
/// client secret (HS256), `iss` and `sub` the client (and a `client_id` in the body too, RFC 7521
/// §4.2), `aud` the token endpoint or the issuer, `exp` not passed, `iat` (when present) not in the
/// future, both NumericDates, and a `jti` never seen before (RFC 7523 §3 item 7: a replayed
/// assertion is refused). Remembers the `jti`s it accepted, bounded like the token ledger.
final class ClientAssertionVerifier: Sendable {
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How far in the future an `iat` may lie, for clocks a little apart.
    static let allowedSkew = 300

    /// What the assertion is signed with.
    enum Key: Sendable {
        /// `private_key_jwt`: ES256 by `RegisteredClientKey.shared`.
        case registeredKey
        /// `client_secret_jwt`: HS256 keyed with the client secret.
        case clientSecret(String)
    }

    let clientID: String
    private let key: Key
    /// The `aud` values accepted for a request: the token endpoint's URL and the issuer, and the
    /// URL of the PAR endpoint (RFC 9126 §2) or the device authorization endpoint for a request
    /// posted there, once the server is bound.
    private let audiences: @Sendable (ProviderRequest) -> [String]
    /// Unix time of the virtual clock now.
    private let unixNow: @Sendable () -> Int
    private let seenJTIs: SeenIdentifiers

    init(
        clientID: String,
        key: Key = .registeredKey,
        audiences: @escaping @Sendable (ProviderRequest) -> [String],
        unixNow: @escaping @Sendable () -> Int,
        capacity: Int = 100_000
    ) {
        self.clientID = clientID
        self.key = key
        self.audiences = audiences
        self.unixNow = unixNow
        self.seenJTIs = SeenIdentifiers(capacity: capacity)
    }

    /// Why the request's assertion does not authenticate the client; `nil` when it does.
    func refusal(of request: ProviderRequest) -> String? {
        guard request.formField("client_assertion_type") == Self.assertionType else {
            return "client_assertion_type must be \(Self.assertionType)"
        }
        guard let assertion = request.formField("client_assertion") else { return "client_assertion is missing" }
        if request.formField("client_secret") != nil || request.header("Authorization") != nil {
            return "more than one client authentication method"
        }
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            case .object(let header)? = JSONValue.parse(String(decoding: headerBytes, as: UTF8.self)),
            case .object(let claims)? = JSONValue.parse(String(decoding: claimBytes, as: UTF8.self))
        else { return "client_assertion is not a JWS compact serialization of JSON objects" }
        let input = Data("\(parts[0]).\(parts[1])".utf8)
        switch key {
        case .registeredKey:
            guard header["alg"]?.stringValue == "ES256", RegisteredClientKey.shared.verifies(signature, over: input)
            else { return "the assertion is not signed ES256 by the client's registered key" }
        case .clientSecret(let secret):
            guard header["alg"]?.stringValue == "HS256",
                HMAC<SHA256>.isValidAuthenticationCode(
                    signature,
                    authenticating: input,
                    using: SymmetricKey(data: Data(secret.utf8))
                )
            else { return "the assertion is not MACed HS256 with the client secret" }
        }
        guard claims["iss"]?.stringValue == clientID, claims["sub"]?.stringValue == clientID else {
            return "iss and sub must both be the client_id"
        }
        if let bodyClientID = request.formField("client_id"), bodyClientID != clientID {
            return "client_id is \(bodyClientID), but the assertion is the client \(clientID)'s (RFC 7521 §4.2)"
        }
        let audience: [String] =
            switch claims["aud"] {
            case .string(let one)?: [one]
            case .array(let many)?: many.compactMap(\.stringValue)
            default: []
            }
        guard audience.contains(where: audiences(request).contains) else {
            return
                "aud must be the token endpoint, the issuer, or the PAR or device authorization endpoint the assertion is posted to"
        }
        let now = unixNow()
        guard let exp = claims["exp"] else { return "exp is missing" }
        guard let expiry = NumericDate.wholeSeconds(exp) else { return "exp must be \(NumericDate.expected)" }
        guard expiry > now else { return "the assertion has expired (exp)" }
        if let iat = claims["iat"] {
            guard let issuedAt = NumericDate.wholeSeconds(iat) else { return "iat must be \(NumericDate.expected)" }
            guard issuedAt <= now + Self.allowedSkew else { return "the assertion was issued in the future (iat)" }
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty else { return "jti is missing" }
        guard SeenIdentifiers.isAcceptable(jti) else { return "jti must be \(SeenIdentifiers.expected)" }
        return seenJTIs.firstSighting(jti) ? nil : "the assertion's jti was used before (a replay)"
    }
}
