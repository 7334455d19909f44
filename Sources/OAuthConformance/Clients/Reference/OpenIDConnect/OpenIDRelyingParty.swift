import Foundation
import MockProvider

/// The reference client's OpenID Connect side: the provider's discovery document (read once, and
/// refused when it speaks for another issuer), its signing keys (`JWKSCache`), the validation of
/// every ID token that arrives (`IDTokenValidator`), and the user it holds as signed in. The
/// reference client asks it before keeping any token set that carries an ID token, so the tokens
/// of a refused response are never stored, sent or refreshed. HTTP is a closure, so this type
/// knows nothing of connections, pins or redirects: the client's own transport carries every call.
actor OpenIDRelyingParty {
    /// One GET: the status and body of the answer; throws on a transport failure.
    typealias Get = @Sendable (_ url: String) async throws -> (status: Int, body: String)

    struct Registration: Sendable {
        /// The issuer the client was configured with, which discovery must confirm.
        var issuer: String
        var configurationURL: String
        var clientID: String
        /// `nil` for a public client, which cannot verify HS256 ID tokens.
        var clientSecret: String?
        var signingAlgorithm: String
    }

    private let registration: Registration
    private let behaviour: OpenIDConnectBehaviour
    private let now: @Sendable () -> Date
    private let get: Get
    private var metadata: OpenIDProviderMetadata?
    private var validator: IDTokenValidator?
    private let nonces = NonceSource()
    /// The ID token the user signed in with, or the last refreshed one that continued it.
    private(set) var signedIn: ValidatedIDToken?
    /// `signedIn` as it arrived (the compact JWS), for leg 2 of a third-party sign-in.
    private(set) var signedInIDToken: String?
    /// The last ID token any token response carried, accepted or not; only a defect uses it.
    private(set) var lastReceivedIDToken: String?

    init(
        registration: Registration,
        behaviour: OpenIDConnectBehaviour,
        now: @escaping @Sendable () -> Date,
        get: @escaping Get
    ) {
        self.registration = registration
        self.behaviour = behaviour
        self.now = now
        self.get = get
    }

    var identity: SignedInIdentity? {
        signedIn.map { SignedInIdentity(issuer: $0.issuer, subject: $0.subject) }
    }

    /// Discovery first: an authentication request goes out only to a provider whose configuration
    /// was accepted. Each request gets a fresh nonce.
    func prepareSignIn() async -> Result<String, ClientFailure> {
        await discovered().map { _ in behaviour.freshNonces ? nonces.next() : "nonce" }
    }

    /// The ID token of a code redemption, before the tokens are kept (OIDC Core §3.1.3.7). An
    /// OpenID Connect token response without one is refused (§3.1.3.3).
    func acceptSignIn(_ tokens: TokenSet, nonce: String) async -> Result<Void, ClientFailure> {
        guard let idToken = tokens.idToken else {
            return .failure(
                ClientFailure(
                    .idToken,
                    message: "the token response of a sign-in carries no id_token (OIDC Core §3.1.3.3)"
                )
            )
        }
        return await accept(idToken, accessToken: tokens.accessToken, context: .authentication(nonce: nonce))
    }

    /// The ID token of a refresh response, if any, must continue the sign-in (§12.2); none keeps it.
    func acceptRefresh(_ tokens: TokenSet) async -> Result<Void, ClientFailure> {
        guard let original = signedIn, let idToken = tokens.idToken else { return .success(()) }
        return await accept(idToken, accessToken: tokens.accessToken, context: .refresh(original: original))
    }

    /// Validates the token in its context; an accepted one becomes the signed-in user.
    private func accept(
        _ idToken: String,
        accessToken: String,
        context: IDTokenValidator.Context
    ) async -> Result<Void, ClientFailure> {
        lastReceivedIDToken = idToken
        let validator: IDTokenValidator
        switch await self.idTokenValidator() {
        case .success(let ready): validator = ready
        case .failure(let failure): return .failure(failure)
        }
        switch await validator.validate(idToken, accessToken: accessToken, context: context) {
        case .success(let accepted):
            signedIn = accepted
            signedInIDToken = idToken
            return .success(())
        case .failure(let refusal):
            return .failure(refusal.clientFailure)
        }
    }

    /// Where the userinfo endpoint is, once someone is signed in.
    func userinfoEndpoint() async -> Result<String, ClientFailure> {
        guard signedIn != nil else {
            return .failure(ClientFailure(.authorizationRequired, message: "nobody is signed in: sign in first"))
        }
        switch await discovered() {
        case .failure(let failure): return .failure(failure)
        case .success(let metadata):
            guard let endpoint = metadata.userinfoEndpoint else {
                return .failure(
                    ClientFailure(.unsupported, message: "the provider's discovery document names no userinfo_endpoint")
                )
            }
            return .success(endpoint)
        }
    }

    /// The claims of a userinfo answer, when they are about the signed-in user (§5.3.2).
    func userinfoClaims(from body: String) -> Result<String, ClientFailure> {
        guard let signedIn else {
            return .failure(ClientFailure(.authorizationRequired, message: "nobody is signed in: sign in first"))
        }
        return UserinfoCheck(behaviour: behaviour).claims(from: body, for: signedIn)
            .map { JSONValue.object($0).serialized() }
            .mapError(\.clientFailure)
    }

    /// After a relaunch: the ID token the user signed in with, read back as the application
    /// persisted it on acceptance. Its checks were made then, so it is not validated again (its
    /// `exp` may well have passed, which ends nothing: the session is its tokens').
    func restore(signedInWith compact: String) {
        guard case .success(let token) = SignedIDToken.parse(compact),
            let issuer = token.claims.string("iss"), let subject = token.claims.string("sub")
        else { return }
        let audiences: [String] =
            switch token.claims.members["aud"] {
            case .string(let audience)?: [audience]
            case .array(let list)?: list.compactMap(\.stringValue)
            default: []
            }
        signedIn = ValidatedIDToken(
            issuer: issuer,
            subject: subject,
            audiences: audiences,
            authorizedParty: token.claims.string("azp"),
            expiresAt: token.claims.date("exp"),
            issuedAt: token.claims.date("iat"),
            claims: token.claims.members
        )
        signedInIDToken = compact
    }

    func signOut() {
        signedIn = nil
        signedInIDToken = nil
    }

    // MARK: Discovery and keys

    private func discovered() async -> Result<OpenIDProviderMetadata, ClientFailure> {
        if let metadata { return .success(metadata) }
        let answer: (status: Int, body: String)
        do {
            answer = try await get(registration.configurationURL)
        } catch {
            return .failure(
                ClientFailure(.transient, message: "the discovery document could not be fetched: \(error)")
            )
        }
        guard answer.status == 200 else {
            return .failure(
                ClientFailure(
                    SurfacedError(status: answer.status).category ?? .protocolViolation,
                    status: answer.status,
                    message: "the discovery document could not be fetched: the provider answered \(answer.status)"
                )
            )
        }
        switch OpenIDProviderMetadata.read(answer.body, fetchedFor: registration.issuer) {
        case .success(let read):
            metadata = read
            return .success(read)
        case .failure(let refusal):
            return .failure(refusal.clientFailure)
        }
    }

    private func idTokenValidator() async -> Result<IDTokenValidator, ClientFailure> {
        if let validator { return .success(validator) }
        let metadata: OpenIDProviderMetadata
        switch await discovered() {
        case .success(let read): metadata = read
        case .failure(let failure): return .failure(failure)
        }
        guard let algorithm = IDTokenSigningAlgorithm(rawValue: registration.signingAlgorithm) else {
            return .failure(
                ClientFailure(
                    .unsupported,
                    message: "this client cannot validate ID tokens signed with \(registration.signingAlgorithm)"
                )
            )
        }
        let get = self.get
        let jwksURI = metadata.jwksURI
        let keys = JWKSCache(policy: behaviour.keySetPolicy, now: now) {
            guard let jwksURI else { throw MissingKeySet() }
            let answer = try await get(jwksURI)
            guard answer.status == 200 else { throw KeySetAnswer(status: answer.status) }
            return answer.body
        }
        let made = IDTokenValidator(
            registration: .init(
                issuer: metadata.issuer,
                clientID: registration.clientID,
                clientSecret: registration.clientSecret,
                signingAlgorithm: algorithm
            ),
            behaviour: behaviour,
            keys: keys,
            now: now
        )
        validator = made
        return .success(made)
    }

    private struct MissingKeySet: Error, CustomStringConvertible {
        var description: String { "the discovery document names no jwks_uri" }
    }

    private struct KeySetAnswer: Error, CustomStringConvertible {
        let status: Int
        var description: String { "the JWKS URI answered \(status)" }
    }
}
