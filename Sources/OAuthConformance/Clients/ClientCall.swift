import MockProvider

/// One thing the runner asks of a client: what `ClientUnderTest.perform(_:)` is handed in
/// process, and one message of the adapter protocol out of process (its `op` is `AdapterOp`).
/// A scenario's step may take several calls (`ClientOperation.plan`): `authorize` is
/// `authorizationURL`, the harness's browser, then `completeAuthorization`.
public enum ClientCall: Sendable, Equatable {
    /// Obtains tokens with the grant (not `authorization_code`, which starts with `authorizationURL`).
    case login(GrantType)
    /// Calls the protected resource the way the application would, letting the client attach,
    /// refresh and replay tokens as it sees fit.
    case request(method: String, url: String)
    /// An MCP client's call of the MCP server at `url` (`ProviderEndpoints.mcpServer`), as its
    /// application makes it: the JSON-RPC request naming `method` (`tools/call`,
    /// `MCPRequestMessage`), sent on the client's MCP session. A client that meets 403
    /// `insufficient_scope` (or a 401 it cannot refresh away) may need the user again inside the
    /// call: it answers `ClientAnswer.needsAuthorization`, the harness's browser visits the URL and
    /// sends `completeAuthorization`, and that answer is the call's (MCP authorization 2026-07-28,
    /// "Step-Up Authorization Flow").
    case mcpCall(method: String, url: String)
    /// As if the application were relaunched: everything held in memory is gone, what the client
    /// persisted (in `ClientEnvironment.storageDirectory`, say) is loaded again.
    case restart
    /// The authorization code flow's first half (RFC 6749 §4.1.1): the URL the client would open
    /// in the user's browser. The harness plays the browser and the user against the provider.
    case authorizationURL
    /// An MCP client's sign-in's first half (MCP authorization 2026-07-28): the client calls the
    /// MCP server (`ProviderEndpoints.mcpServer`) as it would to use it, discovers the server's
    /// authorization server from the 401 it gets, and answers the authorization URL, with the server
    /// as `resource`, that it would open in the browser. The second half is `completeAuthorization`.
    case mcpAuthorizationURL
    /// The flow's second half: the URL the browser was redirected to. The client checks it
    /// (`state`, `iss`, `error`) and redeems the code (RFC 6749 §4.1.2–4.1.3).
    case completeAuthorization(redirectURL: String)
    /// A native app's sign-in (RFC 8252) begins: the client starts its interactive sign-in, which
    /// listens on a loopback port of its own (`http://127.0.0.1:<port>/…`, the registered loopback
    /// redirect URI on a port it chose, §7.3) and asks the system to open the authorization URL.
    /// The client answers that URL (`ClientAnswer.openURL`) while its sign-in waits; the harness's
    /// browser opens it, and follows the provider's redirect to the listener.
    case beginNativeSignIn
    /// The native app's sign-in ends: the client waits for its interactive sign-in to finish (the
    /// listener got the redirect, the client checked `state` and `iss` and redeemed the code, or
    /// gave up) and answers its outcome. The harness asks only once its browser reached the listener.
    case finishNativeSignIn
    /// OpenID Connect sign-in's first half: the authentication request (OIDC Core §3.1.2.1) the
    /// client would open in the browser, with `openid` in `scope` and a fresh `nonce`. The client
    /// finds the provider through `ProviderEndpoints.openIDConfiguration`.
    case signInURL
    /// Sign-in's second half: the client redeems the code and validates the ID token (§3.1.3.7).
    /// A refused ID token is a failure of category `id_token` whose message says which rule it
    /// broke; the tokens of that response must then be dropped. On success `identity` reports
    /// who signed in.
    case completeSignIn(redirectURL: String)
    /// Fetches the signed-in user's claims from the userinfo endpoint (§5.3), as the application
    /// would: success's body is the claims the client accepted, as JSON; a response about another
    /// user is a failure of category `userinfo` (§5.3.2).
    case userinfo
    /// Leg 2 of a third-party sign-in: trades the signed-in user's ID token at the app's own server
    /// (`ProviderEndpoints.appServerToken`) for the app's own tokens, by RFC 8693 token exchange
    /// (`subject_token_type` `urn:ietf:params:oauth:token-type:id_token`) or the RFC 7523 JWT
    /// bearer grant. With nobody signed in (leg 1 failed), `authorization_required` and no
    /// request. A refusal by the app server is category `exchange_refused` (a 5xx, `transient`),
    /// never one of leg 1's, and the user stays signed in with the provider. Afterwards `request`
    /// to the app server's origin carries the app's tokens, refreshed at the app server.
    case exchangeSignIn
    /// The device authorization grant's start (RFC 8628 §3.1–3.3): the client asks the provider's
    /// device authorization endpoint (`ProviderEndpoints.deviceAuthorization`) and reports what
    /// the application shows the user.
    case startDeviceAuthorization
    /// One step of the polling (RFC 8628 §3.4–3.5): the client polls the token endpoint when its
    /// own rules say so, and answers how long it waits before the next poll, or how the flow ended.
    /// The harness moves the virtual clock by that wait and asks again, so minutes of polling cost
    /// milliseconds. `access_denied` and `expired_token` end the flow as failures with that code.
    case pollDeviceAuthorization
    /// The user the client holds as signed in: the `iss` and `sub` of the ID token it accepted
    /// last; `nil` when nobody is signed in. The runner asks after every step of a client that
    /// declares `openid`, so a silent change of user shows in the timeline and fails `same_user`.
    case identity
    /// The tokens the client holds now, as it would use them; `nil` when it holds none.
    case storedTokens
    /// The `tokens` sign-in: the client takes this saved session as its own, as a library takes
    /// the tokens an application restores from its storage, and keeps using and refreshing it.
    /// It makes no request to do so.
    case restoreSession(SavedSession)

    /// What a client must declare to be asked this; `nil` for what every client does. The calls
    /// of one scenario operation need the same capability, which is the operation's.
    public var requiredCapability: Capability? {
        switch self {
        case .login, .request, .storedTokens, .restoreSession: nil
        case .restart: .restart
        case .authorizationURL, .completeAuthorization, .beginNativeSignIn, .finishNativeSignIn: .authorizationCode
        case .mcpAuthorizationURL, .mcpCall: .mcpDiscovery
        case .signInURL, .completeSignIn, .userinfo, .identity: .openID
        case .exchangeSignIn: .idTokenExchange
        case .startDeviceAuthorization, .pollDeviceAuthorization: .deviceGrant
        }
    }

    /// Whether the call can be one of a batch made at once (`ClientUnderTest.perform(concurrently:)`,
    /// the adapter's `concurrently` message): the calls answered by an outcome alone, with no part
    /// of the harness's between them.
    public var isBatchable: Bool {
        switch self {
        case .login, .request, .restart: true
        default: false
        }
    }

    /// The answer of a client that does not implement the call: a failure of category
    /// `unsupported`, or, asked what it holds, nothing.
    public var unsupported: ClientAnswer {
        failed(ClientFailure(.unsupported, message: "this client " + lacking))
    }

    /// The call answered with a failure: the outcome of an operation, or, for a question about what
    /// the client holds (`identity`, `storedTokens`), nothing held.
    func failed(_ failure: ClientFailure) -> ClientAnswer {
        switch self {
        case .identity: .identity(nil)
        case .storedTokens: .storedTokens(nil)
        default: .outcome(.failure(failure))
        }
    }

    /// What a client that answers `unsupported` lacks.
    private var lacking: String {
        switch self {
        case .login(let grant): "does not implement the \(grant.rawValue) grant"
        case .request: "does not call resources"
        case .restart: "cannot be restarted"
        case .authorizationURL, .completeAuthorization: "does not implement the authorization code flow"
        case .mcpAuthorizationURL: "does not implement MCP authorization discovery"
        case .mcpCall: "does not call MCP servers"
        case .beginNativeSignIn, .finishNativeSignIn: "does not implement a native app's sign-in (RFC 8252)"
        case .signInURL, .completeSignIn: "does not implement OpenID Connect sign-in"
        case .userinfo: "does not implement the userinfo call"
        case .exchangeSignIn: "does not exchange ID tokens at an app server"
        case .startDeviceAuthorization, .pollDeviceAuthorization: "does not implement the device authorization grant"
        case .identity: "does not say who is signed in"
        case .storedTokens: "does not show the tokens it holds"
        case .restoreSession: "does not take a saved session"
        }
    }
}
