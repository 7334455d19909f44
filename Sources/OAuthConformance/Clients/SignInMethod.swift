import MockProvider

/// How a client signs a user in, as its profile declares (`sign_in:`, in order of preference). A
/// scenario that does not test a sign-in (`sign_in: any`) runs with the first of them it can use,
/// so a library is judged on refresh, retry and error handling whichever way it obtains tokens.
public enum SignInMethod: String, Sendable, Hashable, CaseIterable, Codable {
    /// The authorization code flow; the harness plays the browser and the consenting user.
    case authorizationCode = "authorization_code"
    /// A native app's sign-in (RFC 8252): the library runs its own loopback redirect listener and
    /// asks the system to open the authorization URL; the harness is that browser, and follows the
    /// provider's redirect to the listener. It is the authorization code flow, with the redirect
    /// received by the library instead of handed to it.
    case nativeApp = "native_app"
    /// OpenID Connect sign-in: the code flow with `openid` and a nonce, the ID token validated.
    case openID = "openid"
    /// The device authorization grant (RFC 8628); the user approves the code at once.
    case device
    /// An MCP client's sign-in (MCP authorization 2026-07-28): the authorization code flow the
    /// client starts from the MCP server's 401, finding the authorization server by discovery, with
    /// the server as `resource`. The harness plays the browser, as for the code flow.
    case mcpDiscovery = "mcp_discovery"
    /// The resource owner password credentials grant (RFC 6749 §4.3).
    case password
    /// The client credentials grant (RFC 6749 §4.4): tokens for the client itself, no user and no
    /// refresh token, so never a user's sign-in (`sign_in: any`); scenarios about it name it.
    case clientCredentials = "client_credentials"
    /// No grant of the client's own: the harness hands it a saved session (access token, refresh
    /// token, expiry, scope) the way an application restores one from its storage.
    case tokens

    /// What a profile without `sign_in:` declares: the password grant, which scenarios used before
    /// the sign-in was the client's.
    public static let undeclared: [SignInMethod] = [.password]

    /// The capability a client that signs in this way has without declaring it.
    public var impliedCapability: Capability? {
        switch self {
        case .authorizationCode, .nativeApp: .authorizationCode
        case .openID: .openID
        case .device: .deviceGrant
        case .mcpDiscovery: .mcpDiscovery
        case .password, .clientCredentials, .tokens: nil
        }
    }

    /// Whether the method signs a user in, with a refresh token to keep the session going.
    public var signsInAUser: Bool { self != .clientCredentials }

    /// The grant of the token request that ends the sign-in; `nil` for saved tokens, which take none.
    public var grant: GrantType? {
        switch self {
        case .authorizationCode, .nativeApp, .openID, .mcpDiscovery: .authorizationCode
        case .device: .deviceCode
        case .password: .password
        case .clientCredentials: .clientCredentials
        case .tokens: nil
        }
    }

    /// Whether some method ends its sign-in with a token request of this grant.
    static func endsASignIn(_ grant: GrantType) -> Bool {
        allCases.contains { $0.grant == grant }
    }

    /// Whether a request matching `endpoint` and `grant` (each `nil` for any) may be the token
    /// request that ends a sign-in.
    static func mayEndASignIn(endpoint: Endpoint?, grant: GrantType?) -> Bool {
        (endpoint == nil || endpoint == .token) && (grant.map(endsASignIn) ?? true)
    }

    /// Why naming `grant` where the sign-in is the client's (`sign_in: any` at step `signInStep`)
    /// makes a scenario depend on how the client signs in; `nil` for a grant no sign-in uses.
    static func problem(naming grant: GrantType, signInStep: Int) -> String? {
        guard endsASignIn(grant) else { return nil }
        return
            "names the \(grant.scenarioName) grant, which only some clients sign in with; step \(signInStep) (sign_in: any) signs in the client's own way"
    }

    /// The endpoints some methods call to sign in and others do not: all but the token endpoint,
    /// which every method but saved tokens calls once.
    static let endpointsOfSomeSignIn: Set<Endpoint> = [
        .authorize, .pushedAuthorization, .deviceAuthorization, .metadata, .openIDConfiguration, .jwks,
        .mcp, .protectedResourceMetadata, .protectedResourceMetadataRoot, .protectedResourceMetadataNamed,
    ]

    /// The operation that carries the method out.
    var operation: ClientOperation {
        switch self {
        case .authorizationCode: .authorize
        case .nativeApp: .nativeSignIn
        case .openID: .signIn
        case .device: .deviceSignIn
        case .mcpDiscovery: .mcpSignIn
        case .password: .login(.password)
        case .clientCredentials: .login(.clientCredentials)
        case .tokens: .restoreSession
        }
    }
}
