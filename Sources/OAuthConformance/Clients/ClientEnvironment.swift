import Foundation
import MockProvider

/// What a client needs to talk to the provider of one scenario run. The runner makes it once
/// per scenario; an in-process client keeps it as it is, and an adapter receives it in `reset`
/// (`Codable`, with the protocol's names).
public struct ClientEnvironment: Sendable {
    /// Where the provider is.
    public var endpoints: ProviderEndpoints
    /// Where the provider sends the browser back to; registered for the client.
    public var redirectURI: String
    /// The client's id and secret; for a public client (`clientAuthentication` `.publicClient`) the
    /// secret is empty, as it has none: read `clientSecret`. Both are empty for a client the
    /// provider holds no registration for (`isPreRegistered` false).
    public var client: ClientCredentials
    /// Whether the provider registered the client before the scenario (`client` holds its id);
    /// without, the client gets a client ID itself (MCP authorization, "Client Registration"): by
    /// its Client ID Metadata Document's URL or by Dynamic Client Registration (RFC 7591).
    public var isPreRegistered: Bool
    /// The URL of the client's Client ID Metadata Document, from its profile
    /// (`client_id_metadata_url`): its `client_id` where the authorization server takes one.
    public var clientIDMetadataDocumentURL: String?
    public var user: UserCredentials
    /// The virtual clock; an in-process client reads its time here.
    public var clock: VirtualClock
    /// A directory of the client's own for what it persists; it outlives `restart` and is
    /// removed when the scenario ends.
    public var storageDirectory: URL
    /// The PEM file of the CA that signed the provider's certificate, when it speaks HTTPS.
    public var caCertificateFile: String?
    /// The provider's public key as a pinning client pins it, when it speaks HTTPS: base64 of the
    /// SHA-256 of its DER SubjectPublicKeyInfo (the `pin-sha256` of RFC 7469).
    public var pinnedPublicKeySHA256: String?
    /// The ID token signing algorithm the client is registered with (`id_token_signed_response_alg`,
    /// OIDC Dynamic Registration §2): RS256 unless the scenario registers another.
    public var idTokenSigningAlgorithm: String
    /// How the client is registered to authenticate: its secret (Basic or in the body), assertions
    /// (`private_key_jwt` with `clientAssertionKey`, `client_secret_jwt` with its secret), or not at
    /// all: a public client (`none`) sends its `client_id` alone and uses PKCE.
    public var clientAuthentication: ClientAuthenticationMethod
    /// For a client registered with `private_key_jwt`: the private JWK (ES256, with `kid`) it signs
    /// its client assertions with; `nil` when it authenticates with its secret.
    public var clientAssertionKey: String?
    /// RFC 9449 §5.1: the algorithms the provider takes DPoP proofs signed with, when the scenario's
    /// provider offers DPoP; `nil` otherwise.
    public var dpopSigningAlgorithms: [String]?

    public init(
        endpoints: ProviderEndpoints,
        redirectURI: String,
        client: ClientCredentials,
        user: UserCredentials,
        clock: VirtualClock,
        storageDirectory: URL,
        caCertificateFile: String? = nil,
        pinnedPublicKeySHA256: String? = nil,
        idTokenSigningAlgorithm: String = "RS256",
        clientAuthentication: ClientAuthenticationMethod = .clientSecret,
        clientAssertionKey: String? = nil,
        dpopSigningAlgorithms: [String]? = nil,
        isPreRegistered: Bool = true,
        clientIDMetadataDocumentURL: String? = nil
    ) {
        self.endpoints = endpoints
        self.redirectURI = redirectURI
        // A public client is given no secret, whatever the registration holds; a client that is
        // not registered, neither id nor secret.
        self.client =
            !isPreRegistered
            ? ClientCredentials(id: "", secret: "")
            : clientAuthentication.isConfidential ? client : ClientCredentials(id: client.id, secret: "")
        self.isPreRegistered = isPreRegistered
        self.clientIDMetadataDocumentURL = clientIDMetadataDocumentURL
        self.user = user
        self.clock = clock
        self.storageDirectory = storageDirectory
        self.caCertificateFile = caCertificateFile
        self.pinnedPublicKeySHA256 = pinnedPublicKeySHA256
        self.idTokenSigningAlgorithm = idTokenSigningAlgorithm
        self.clientAuthentication = clientAuthentication
        self.clientAssertionKey = clientAssertionKey
        self.dpopSigningAlgorithms = dpopSigningAlgorithms
    }

    /// The client's secret; `nil` for a public client, which has none, and for a client that is not
    /// registered.
    public var clientSecret: String? { isPreRegistered && clientAuthentication.isConfidential ? client.secret : nil }
}
