import Foundation
import MockProvider

/// What a client needs to talk to the provider of one scenario run.
public struct ClientEnvironment: Sendable {
    public var tokenEndpointURL: String
    public var authorizationEndpointURL: String
    public var resourceBaseURL: String
    /// The provider's issuer identifier (RFC 8414), which RFC 9207's `iss` must equal.
    public var issuer: String
    /// Where the provider sends the browser back to; registered for the client.
    public var redirectURI: String
    public var client: ClientCredentials
    public var user: UserCredentials
    /// The virtual clock; an in-process client reads its time here.
    public var clock: VirtualClock
    /// The PEM file of the CA that signed the provider's certificate, when it speaks HTTPS.
    public var caCertificateFile: String?
    /// The provider's public key as a pinning client pins it, when it speaks HTTPS: base64 of the
    /// SHA-256 of its DER SubjectPublicKeyInfo (the `pin-sha256` of RFC 7469).
    public var pinnedPublicKeySHA256: String?
    /// A directory of the client's own for what it persists; it outlives `restart` and is
    /// removed when the scenario ends.
    public var storageDirectory: URL
    /// The provider's OpenID Connect discovery document (`<issuer>/.well-known/openid-configuration`),
    /// where a relying party finds its endpoints and signing keys.
    public var openIDConfigurationURL: String
    /// The ID token signing algorithm the client is registered with (`id_token_signed_response_alg`,
    /// OIDC Dynamic Registration §2): RS256 unless the scenario registers another.
    public var idTokenSigningAlgorithm: String
    /// The app's own server (another origin, another issuer): where leg 2 of a third-party
    /// sign-in trades the provider's ID token for the app's tokens, and refreshes them.
    public var appServerTokenEndpointURL: String?
    /// For a client registered with `private_key_jwt`: the private JWK (ES256, with `kid`) it signs
    /// its client assertions with; `nil` when it authenticates with its secret.
    public var clientAssertionKey: String?
    /// RFC 9126: for a scenario whose provider takes pushed authorization requests, where to push
    /// them; `nil` otherwise.
    public var pushedAuthorizationEndpointURL: String?
    /// RFC 8628 §3.1: the provider's device authorization endpoint.
    public var deviceAuthorizationEndpointURL: String?
    /// RFC 9449 §5.1: the algorithms the provider takes DPoP proofs signed with, when the scenario's
    /// provider offers DPoP; `nil` otherwise.
    public var dpopSigningAlgorithms: [String]?
    /// How the client is registered to authenticate: its secret (Basic or in the body), or
    /// assertions (`private_key_jwt` with `clientAssertionKey`, `client_secret_jwt` with its secret).
    public var clientAuthentication: ClientAuthenticationMethod

    public init(
        tokenEndpointURL: String,
        authorizationEndpointURL: String,
        resourceBaseURL: String,
        issuer: String,
        redirectURI: String,
        client: ClientCredentials,
        user: UserCredentials,
        clock: VirtualClock,
        caCertificateFile: String? = nil,
        pinnedPublicKeySHA256: String? = nil,
        storageDirectory: URL,
        openIDConfigurationURL: String? = nil,
        idTokenSigningAlgorithm: String = "RS256",
        appServerTokenEndpointURL: String? = nil,
        clientAssertionKey: String? = nil,
        pushedAuthorizationEndpointURL: String? = nil,
        deviceAuthorizationEndpointURL: String? = nil,
        dpopSigningAlgorithms: [String]? = nil,
        clientAuthentication: ClientAuthenticationMethod? = nil
    ) {
        self.dpopSigningAlgorithms = dpopSigningAlgorithms
        self.clientAuthentication = clientAuthentication ?? (clientAssertionKey == nil ? .clientSecret : .privateKeyJWT)
        self.tokenEndpointURL = tokenEndpointURL
        self.authorizationEndpointURL = authorizationEndpointURL
        self.resourceBaseURL = resourceBaseURL
        self.issuer = issuer
        self.redirectURI = redirectURI
        self.client = client
        self.user = user
        self.clock = clock
        self.caCertificateFile = caCertificateFile
        self.pinnedPublicKeySHA256 = pinnedPublicKeySHA256
        self.storageDirectory = storageDirectory
        self.openIDConfigurationURL = openIDConfigurationURL ?? issuer + "/.well-known/openid-configuration"
        self.idTokenSigningAlgorithm = idTokenSigningAlgorithm
        self.appServerTokenEndpointURL = appServerTokenEndpointURL
        self.clientAssertionKey = clientAssertionKey
        self.pushedAuthorizationEndpointURL = pushedAuthorizationEndpointURL
        self.deviceAuthorizationEndpointURL = deviceAuthorizationEndpointURL
    }
}
