import MockProvider

/// Where a client finds the provider of one scenario run: its issuer identifier and the URLs of
/// its endpoints, as `ClientEnvironment.endpoints` hands them to the client.
public struct ProviderEndpoints: Sendable, Equatable {
    /// The provider's issuer identifier (RFC 8414), which RFC 9207's `iss` must equal.
    public var issuer: String
    public var token: String
    public var authorization: String
    /// The protected resource; a `request` call's URL starts with it.
    public var resourceBase: String
    /// The provider's OpenID Connect discovery document (`<issuer>/.well-known/openid-configuration`),
    /// where a relying party finds its endpoints and signing keys.
    public var openIDConfiguration: String
    /// The app's own server (another origin, another issuer): where leg 2 of a third-party
    /// sign-in trades the provider's ID token for the app's tokens, and refreshes them.
    public var appServerToken: String
    /// RFC 9126: for a scenario whose provider takes pushed authorization requests, where to push
    /// them; `nil` otherwise.
    public var pushedAuthorization: String?
    /// RFC 8628 §3.1: the provider's device authorization endpoint.
    public var deviceAuthorization: String
    /// An MCP server (`<origin>/mcp`): all an MCP client is told; it discovers the rest from the
    /// server's 401 (MCP authorization 2026-07-28).
    public var mcpServer: String

    /// The endpoints of a provider serving at `baseURL` (its issuer, unless `issuer` says
    /// otherwise), whose app server is at `appServerOrigin`.
    public init(
        baseURL: String,
        appServerOrigin: String,
        issuer: String? = nil,
        takesPushedAuthorization: Bool = false
    ) {
        self.issuer = issuer ?? baseURL
        token = baseURL + Endpoint.token.path
        authorization = baseURL + Endpoint.authorize.path
        resourceBase = baseURL
        openIDConfiguration = baseURL + Endpoint.openIDConfiguration.path
        appServerToken = appServerOrigin + Endpoint.appToken.path
        pushedAuthorization = takesPushedAuthorization ? baseURL + Endpoint.pushedAuthorization.path : nil
        deviceAuthorization = baseURL + Endpoint.deviceAuthorization.path
        mcpServer = baseURL + Endpoint.mcp.path
    }

    /// The URL a scenario's `request` of `path` goes to: the app server's resource lives on the
    /// app server's origin, every other path on the provider's.
    func resourceURL(_ path: String) -> String {
        let pathAlone = String(path.prefix { $0 != "?" })
        guard Endpoint(path: pathAlone)?.isAppServer == true else { return resourceBase + path }
        return String(appServerToken.dropLast(Endpoint.appToken.path.count)) + path
    }
}
