import MockProvider

/// What a scenario's step asks of the client, in the scenario's words; the client reports how it
/// ended. One operation may take several `ClientCall`s with the harness's part between them
/// (`plan`): that is the difference between the two.
public enum ClientOperation: Sendable, Equatable {
    /// Obtain tokens with this grant.
    case login(GrantType)
    /// Call the protected resource as the application would.
    case request(method: String, path: String)
    /// Run the authorization code flow; the harness plays the browser and the consenting user.
    case authorize
    /// Sign in to the MCP server as an MCP client does (MCP authorization 2026-07-28): from the
    /// server's 401 through discovery to the authorization code flow, the harness playing the browser.
    case mcpSignIn
    /// Call the MCP server as the application does with its MCP session: a JSON-RPC request naming
    /// this method (`tools/call`). An MCP client that needs more scope steps up inside the call,
    /// the harness playing the browser for each authorization it asks for (`ClientAnswer.needsAuthorization`).
    case mcpCall(method: String)
    /// Relaunch the client: it keeps only what it persisted.
    case restart
    /// Sign the user in with OpenID Connect: the authorization code flow with `openid` in the
    /// scope and a nonce, the ID token validated (OIDC Core §3.1). The harness plays the browser.
    case signIn
    /// Fetch the signed-in user's claims from the userinfo endpoint (OIDC Core §5.3).
    case userinfo
    /// Leg 2 of a third-party sign-in: trade the ID token at the app's own server for its tokens.
    case exchange
    /// The device authorization grant (RFC 8628): start, then poll until the flow ends; the
    /// harness moves the virtual clock by each wait the client asks for.
    case deviceSignIn
    /// A native app's sign-in (RFC 8252): the client starts its own loopback listener and asks to
    /// open the authorization URL; the harness's browser opens it and follows the provider's
    /// redirect to that listener, then the client's sign-in ends.
    case nativeSignIn
    /// A user's sign-in the client's own way (`sign_in: any`), for a scenario that tests what comes
    /// after it: the first method of the profile's `sign_in` list the scenario can use
    /// (`SignInChoice`). Every instant and count of such a scenario holds whichever method it was.
    case signInAsTheClientDoes
    /// The `tokens` sign-in: the harness has the provider issue a session and hands the client the
    /// saved tokens, as an application restores a session from its own storage.
    case restoreSession

    public var text: String {
        switch self {
        case .login(let grant): "login \(grant.rawValue)"
        case .request(let method, let path): "request \(method) \(path)"
        case .authorize: "authorize"
        case .mcpSignIn: "mcp_sign_in"
        case .mcpCall(let method): "mcp_call \(method)"
        case .restart: "restart"
        case .signIn: "sign_in"
        case .userinfo: "userinfo"
        case .exchange: "exchange"
        case .deviceSignIn: "device_sign_in"
        case .nativeSignIn: "native_sign_in"
        case .signInAsTheClientDoes: "sign_in any"
        case .restoreSession: "sign_in tokens"
        }
    }

    /// The calls that carry the operation out, with a `request`'s path made a URL by `resourceURL`,
    /// and a sign-in that is the client's carried out by `signIn`.
    func plan(resourceURL: (_ path: String) -> String, signIn: SignInMethod) -> OperationPlan {
        switch self {
        case .signInAsTheClientDoes: signIn.operation.plan(resourceURL: resourceURL, signIn: signIn)
        case .restoreSession: .restoredSession(restore: ClientCall.restoreSession)
        case .login(let grant): .call(.login(grant))
        case .request(let method, let path): .call(.request(method: method, url: resourceURL(path)))
        case .mcpCall(let method): .call(.mcpCall(method: method, url: resourceURL(Endpoint.mcp.path)))
        case .restart: .call(.restart)
        case .userinfo: .call(.userinfo)
        case .exchange: .call(.exchangeSignIn)
        case .authorize: .throughBrowser(start: .authorizationURL, complete: ClientCall.completeAuthorization)
        case .signIn: .throughBrowser(start: .signInURL, complete: ClientCall.completeSignIn)
        case .mcpSignIn: .throughBrowser(start: .mcpAuthorizationURL, complete: ClientCall.completeAuthorization)
        case .deviceSignIn: .devicePolling(start: .startDeviceAuthorization, poll: .pollDeviceAuthorization)
        case .nativeSignIn: .throughLoopback(begin: .beginNativeSignIn, finish: .finishNativeSignIn)
        }
    }

    /// What the client must be able to do: what the calls of its plan need, wherever a request goes.
    /// A sign-in that is the client's needs none: the method is chosen among those it declares.
    public var requiredCapability: Capability? {
        self == .signInAsTheClientDoes ? nil : plan(resourceURL: { $0 }, signIn: .password).requiredCapability
    }
}
