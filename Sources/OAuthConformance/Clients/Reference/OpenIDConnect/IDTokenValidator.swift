import Foundation

/// Validates the ID token of a token response as OpenID Connect Core §3.1.3.7 asks of a code-flow
/// client, and a refresh response's ID token as §12.2 asks: JWTKit checks the JWS with the key the
/// provider's JWKS holds for it (`IDTokenSignatureCheck`), then the claims are checked one rule at a
/// time (`IDTokenClaimsCheck`). The result is who signed in, or the one rule the token broke.
/// Time is the client's clock, a closure, so a scenario's virtual clock decides what has expired.
public struct IDTokenValidator: Sendable {
    /// What the client registered with, or discovered about, the provider.
    public struct Registration: Sendable, Equatable {
        /// The issuer identifier `iss` must equal, as discovered (Discovery §4.3).
        public var issuer: String
        public var clientID: String
        /// Keys HS256, when the client registered that algorithm.
        public var clientSecret: String?
        /// `id_token_signed_response_alg`; RS256 unless registered otherwise.
        public var signingAlgorithm: IDTokenSigningAlgorithm

        public init(
            issuer: String,
            clientID: String,
            clientSecret: String? = nil,
            signingAlgorithm: IDTokenSigningAlgorithm = .rs256
        ) {
            self.issuer = issuer
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.signingAlgorithm = signingAlgorithm
        }
    }

    /// Which response the ID token came in.
    public enum Context: Sendable, Equatable {
        /// The code's redemption: the token must carry the nonce the authentication request sent
        /// (`nil` when none was sent).
        case authentication(nonce: String?)
        /// A refresh: the token must continue the original sign-in (§12.2).
        case refresh(original: ValidatedIDToken)
    }

    private let registration: Registration
    private let behaviour: OpenIDConnectBehaviour
    private let keys: JWKSCache
    private let now: @Sendable () -> Date

    public init(
        registration: Registration,
        behaviour: OpenIDConnectBehaviour = .conforming,
        keys: JWKSCache,
        now: @escaping @Sendable () -> Date
    ) {
        self.registration = registration
        self.behaviour = behaviour
        self.keys = keys
        self.now = now
    }

    /// `accessToken` is the one from the same response, for `at_hash`.
    public func validate(
        _ idToken: String,
        accessToken: String?,
        context: Context
    ) async -> Result<ValidatedIDToken, OpenIDConnectRefusal> {
        let token: SignedIDToken
        switch SignedIDToken.parse(idToken) {
        case .success(let parsed): token = parsed
        case .failure(let refusal): return .failure(refusal)
        }
        let signatureCheck = IDTokenSignatureCheck(registration: registration, behaviour: behaviour, keys: keys)
        let algorithm: String
        switch await signatureCheck.verify(token) {
        case .success(let used): algorithm = used
        case .failure(let refusal): return .failure(refusal)
        }
        return IDTokenClaimsCheck(registration: registration, behaviour: behaviour, now: now())
            .check(token.claims, signedWith: algorithm, accessToken: accessToken, context: context)
    }

    /// §12.2: a refresh response may carry no ID token, and the original identity stays; one that
    /// does must continue the original sign-in.
    public func validateRefresh(
        _ idToken: String?,
        accessToken: String?,
        original: ValidatedIDToken
    ) async -> Result<ValidatedIDToken, OpenIDConnectRefusal> {
        guard let idToken else { return .success(original) }
        return await validate(idToken, accessToken: accessToken, context: .refresh(original: original))
    }
}
