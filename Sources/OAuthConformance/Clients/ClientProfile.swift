/// What a client declares: scenarios take policy values from here instead of hard-coding them.
public struct ClientProfile: Sendable, Equatable {
    public var name: String
    public var version: String
    /// What it declares it can do, with what its sign-in methods imply (`SignInMethod.impliedCapability`).
    public var capabilities: Set<Capability>
    /// How it signs a user in, in order of preference (`sign_in:`): a scenario whose sign-in is
    /// the client's (`sign_in: any`) takes the first it can use.
    public var signInMethods: [SignInMethod]
    /// How it is registered where a scenario does not say (`client_type:`).
    public var clientType: ClientType
    /// The redirect URI it is registered with where a scenario registers none (`redirect_uri:`):
    /// a library that listens on a path of its own (`http://127.0.0.1:<port>/`, say) says so;
    /// `nil`, the harness's `http://127.0.0.1/callback`.
    public var redirectURI: String?
    /// The URL of the client's Client ID Metadata Document (`client_id_metadata_url:`), an `https`
    /// URL with a path, which it uses as its `client_id` where the authorization server advertises
    /// them (MCP authorization, "Client ID Metadata Documents"); declaring one declares the
    /// `client_id_metadata_document` capability.
    public var clientIDMetadataURL: String?
    /// How long before expiry the client refreshes proactively.
    public var refreshWindow: Duration?
    /// What the client makes of a token response without `expires_in`; `nil` when it does not say.
    public var missingExpiresIn: MissingExpiresInPolicy?
    /// The leeway the client allows on an ID token's `exp` and `iat` (OIDC Core §3.1.3.7 steps 9
    /// and 10 leave it to the client); `nil` when it does not say, and scenarios written around
    /// it are skipped.
    public var idTokenClockSkew: Duration?
    /// The shortest time the client leaves between two JWKS fetches prompted by a `kid` it does not
    /// know (zero: at most one per such token); `nil` when it does not say.
    public var jwksRefetchInterval: Duration?
    /// Scenarios the client is known to fail: reported as expected failures, not as failures,
    /// so CI stays green on known gaps; one of them that passes is reported as a failure.
    public var expectedFailures: [ExpectedFailure]
    /// The behaviour families the library leaves to the application (`application_part:`).
    public var applicationPart: [ApplicationPart]

    public init(
        name: String,
        version: String,
        capabilities: Set<Capability>,
        signInMethods: [SignInMethod] = SignInMethod.undeclared,
        clientType: ClientType = .confidential,
        redirectURI: String? = nil,
        clientIDMetadataURL: String? = nil,
        refreshWindow: Duration?,
        missingExpiresIn: MissingExpiresInPolicy? = nil,
        idTokenClockSkew: Duration? = nil,
        jwksRefetchInterval: Duration? = nil,
        expectedFailures: [ExpectedFailure] = [],
        applicationPart: [ApplicationPart] = []
    ) {
        self.name = name
        self.version = version
        self.capabilities = capabilities.union(signInMethods.compactMap(\.impliedCapability))
            .union(clientIDMetadataURL == nil ? [] : [.clientIDMetadataDocument])
        self.signInMethods = signInMethods
        self.clientType = clientType
        self.redirectURI = redirectURI
        self.clientIDMetadataURL = clientIDMetadataURL
        self.refreshWindow = refreshWindow
        self.missingExpiresIn = missingExpiresIn
        self.idTokenClockSkew = idTokenClockSkew
        self.jwksRefetchInterval = jwksRefetchInterval
        self.expectedFailures = expectedFailures
        self.applicationPart = applicationPart
    }
}
