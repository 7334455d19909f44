import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1
import NIOSSL

/// The bundled conforming client: the default client under test, and the yardstick every check
/// is proven against. Proactive refresh inside a window (at half-life for tokens shorter than
/// twice the window), one refresh and one replay on a 401 `invalid_token` (none for a 403
/// `insufficient_scope`), a request sent with a token already replaced replayed without another
/// refresh, single-flight refresh whose failure fails every waiter, the previous refresh token kept
/// when a refresh response carries none (or `null`, or `""`), RFC 6749 §5.2 errors mapped to typed
/// failures whatever the status, `invalid_grant` ending the session. Transient token endpoint
/// failures (5xx, 429, transport) fail the call cleanly with the tokens kept; after a
/// `Retry-After` (seconds or HTTP-date, on the clock the client reads) no token request is sent
/// before the time it names. `expires_in` absent, zero, negative or unreadable means no stated
/// lifetime: the token is used until a 401. The authorization code flow with PKCE S256, `state`
/// and `iss` checks; tokens persisted so a restart keeps them; no redirect followed; only
/// certificates from the CA it is given trusted.
public actor ReferenceClient: ClientUnderTest {
    static let maximumBodySize = 1 << 20

    /// Where the provider is and how the client is registered there, as the scenario made it; an
    /// MCP client that obtains a client ID itself (`obtainMCPClientID`) is registered so from then on.
    var environment: ClientEnvironment
    /// Real time a request may take before it fails as transient.
    let requestTimeout: TimeAmount
    let behaviour: ClientBehaviour
    let now: @Sendable () -> Date
    let interpreter: TokenResponseInterpreter
    let http: HTTPClient
    var tokens: TokenSet?
    var loginGrant: GrantType?
    var refreshInFlight: Task<Result<TokenSet, ClientFailure>, Never>?
    var pendingAuthorization: AuthorizationRequest?
    /// What an MCP sign-in discovered: where its tokens come from and which server they are for.
    var mcpAuthorization: MCPAuthorization?
    /// The client ID at each authorization server, by issuer (`ReferenceClient+MCPRegistration`).
    var mcpRegistrations: [String: MCPClientRegistration] = [:]
    /// The issuer of the client ID adopted last.
    var latestMCPIssuer: String?
    /// The MCP call a step-up interrupted, sent again once the user has authorized.
    var mcpCallInProgress: MCPCallInProgress?
    /// Step-ups so far for each resource and operation (`MCPCallInProgress.attemptKey`), until one succeeds.
    var mcpStepUps: [String: Int] = [:]
    /// A native app's loopback listener, between `beginNativeSignIn` and `finishNativeSignIn`.
    var nativeListener: LoopbackListener?
    /// Where tokens are persisted across `restart`.
    let store: TokenStore
    /// Where the accepted ID token is persisted across `restart`, beside the tokens.
    let signInStore: SignInStore
    /// Set by a `Retry-After` from the token endpoint: no token request before this instant.
    var tokenEndpointQuietUntil: Date?
    let pin: PublicKeyPin?
    /// HTTPS origins (`host:port`) whose certificate carried the pinned key.
    var pinnedOriginsVerified: Set<String> = []
    /// Made at the first sign-in; it vets every ID token before the tokens it came with are kept.
    var relyingParty: OpenIDRelyingParty?
    /// Made at the first `private_key_jwt` token request.
    var assertionSigner: ClientAssertionSigner?
    /// The assertion sent last; only the defect that reuses assertions sends it again.
    var lastAssertion: String?
    /// The authorization URL of the last push; only the defect that reuses `request_uri`s opens it again.
    var pushedURL: String?
    /// The device authorization under way, between `startDeviceAuthorization` and its end.
    var deviceAuthorization: DeviceAuthorizationSession?
    /// Made at the first exchange of a sign-in; its tokens are for the app server alone.
    var appServerSession: AppServerSession?
    /// Made when the provider offers DPoP with ES256 (RFC 9449 §5.1), the reference client's algorithm.
    lazy var dpop: DPoPSession? =
        environment.dpopSigningAlgorithms?.contains("ES256") == true ? DPoPSession(behaviour: behaviour.dpop) : nil

    /// A client for the scenario's `environment`, reading its clock.
    public init(
        environment: ClientEnvironment,
        behaviour: ClientBehaviour = .conforming,
        requestTimeout: TimeAmount = .seconds(30)
    ) {
        self.environment = environment
        self.requestTimeout = requestTimeout
        self.behaviour = behaviour
        let clock = environment.clock
        self.now = { clock.now }
        self.interpreter = TokenResponseInterpreter(behaviour: behaviour)
        self.store = TokenStore(file: environment.storageDirectory.appendingPathComponent("tokens.json"))
        self.signInStore = SignInStore(file: environment.storageDirectory.appendingPathComponent("id_token.jwt"))
        // Verification switched off is switched off whole, pin included, as a disabled trust evaluator is.
        let pins = behaviour.checksPinnedKey && behaviour.verifiesCertificates
        self.pin = pins ? environment.pinnedPublicKeySHA256.map { PublicKeyPin(pinnedSHA256: $0) } : nil
        self.tokens = store.load()
        var httpConfiguration = HTTPClient.Configuration()
        // Redirects are followed by hand, when a defect asks for it; following one carries
        // credentials to wherever it points.
        httpConfiguration.redirectConfiguration = .disallow
        httpConfiguration.timeout = .init(connect: .seconds(5), read: requestTimeout)
        // A refused TLS handshake or connection is reported at once, not retried until the
        // connect timeout: the application decides about retries, not the transport.
        httpConfiguration.connectionPool.retryConnectionEstablishment = false
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = environment.caCertificateFile { tls.trustRoots = .file(caFile) }
        if !behaviour.verifiesCertificates { tls.certificateVerification = .none }
        httpConfiguration.tlsConfiguration = tls
        self.http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
    }

    public func perform(_ call: ClientCall) async -> ClientAnswer {
        switch call {
        case .login(let grant): .outcome(await login(grant))
        case .request(let method, let url): .outcome(await request(method: method, url: url))
        case .restart: .outcome(await restart())
        case .authorizationURL: Self.answer(await authorizationURL(), ClientAnswer.browserURL)
        case .mcpAuthorizationURL: Self.answer(await mcpAuthorizationURL(), ClientAnswer.browserURL)
        case .mcpCall(let method, let url): await mcpCall(method: method, url: url)
        case .completeAuthorization(let redirectURL): await completeMCPAuthorization(redirectURL: redirectURL)
        case .beginNativeSignIn: Self.answer(await beginNativeSignIn(), ClientAnswer.openURL)
        case .finishNativeSignIn: .outcome(await finishNativeSignIn())
        case .signInURL: Self.answer(await signInURL(), ClientAnswer.browserURL)
        case .completeSignIn(let redirectURL): .outcome(await completeSignIn(redirectURL: redirectURL))
        case .userinfo: .outcome(await userinfo())
        case .exchangeSignIn: .outcome(await exchangeSignIn())
        case .startDeviceAuthorization: Self.answer(await startDeviceAuthorization(), ClientAnswer.devicePrompt)
        case .pollDeviceAuthorization: await pollDeviceAuthorization()
        case .identity: .identity(await identity())
        case .storedTokens: .storedTokens(await storedTokens())
        case .restoreSession(let saved): .outcome(restoreSession(saved))
        }
    }

    public func shutdown() async {
        await nativeListener?.close()
        nativeListener = nil
        try? await http.shutdown()
    }

    /// A value the client produced, or the failure that took its place.
    private static func answer<Value>(
        _ produced: Result<Value, ClientFailure>,
        _ answer: (Value) -> ClientAnswer
    ) -> ClientAnswer {
        switch produced {
        case .success(let value): answer(value)
        case .failure(let failure): .outcome(.failure(failure))
        }
    }

    func login(_ grant: GrantType) async -> ClientOutcome {
        guard grant != .refreshToken else { return Self.outcome(of: await refresh()) }
        // A grant of its own ends the MCP session's hold on the token endpoint and its resource.
        mcpAuthorization = nil
        guard let form = grantForm(grant) else {
            return .failure(
                ClientFailure(
                    .authorizationRequired,
                    message: "the authorization code grant starts with an authorize step, not a login"
                )
            )
        }
        return await obtainTokens(form, grant: grant)
    }

    /// - Parameter nonce: set for an OpenID Connect sign-in, whose ID token is validated against it
    ///   before the tokens are kept: a refused one leaves no token behind.
    func obtainTokens(
        _ form: [(String, String)],
        grant: GrantType,
        signInNonce nonce: String? = nil
    ) async
        -> ClientOutcome
    {
        var result = await requestTokens(form, previous: nil)
        if behaviour.retriesTokenErrors, case .failure(let failure) = result, failure.oauthError != nil {
            result = await requestTokens(form, previous: nil)
        }
        if let nonce, case .success(let obtained) = result, let relyingParty {
            if case .failure(let refused) = await relyingParty.acceptSignIn(obtained, nonce: nonce) {
                result = .failure(refused)
            } else {
                signInStore.save(await relyingParty.signedInIDToken)
            }
        }
        if case .success(let obtained) = result {
            replaceTokens(with: obtained, persisting: true)
            loginGrant = grant
        }
        return Self.outcome(of: result)
    }

    /// The form of a grant the client can start by itself.
    func grantForm(_ grant: GrantType) -> [(String, String)]? {
        switch grant {
        case .password:
            [
                ("grant_type", grant.rawValue), ("username", environment.user.username),
                ("password", environment.user.password),
            ]
        case .clientCredentials: [("grant_type", grant.rawValue)]
        case .refreshToken, .authorizationCode, .deviceCode, .tokenExchange, .jwtBearer: nil
        }
    }

    // MARK: Lifecycle

    func restart() async -> ClientOutcome {
        refreshInFlight = nil
        pendingAuthorization = nil
        await nativeListener?.close()
        nativeListener = nil
        loginGrant = nil
        // The app server's session lives in memory only: after a relaunch, leg 2 starts again.
        appServerSession = nil
        // Discovery, keys and the signed-in user were memory too; the user comes back from storage.
        relyingParty = nil
        if tokens != nil, let idToken = signInStore.load() {
            await openIDRelyingParty().restore(signedInWith: idToken)
        }
        tokens = store.load()
        return .success(
            status: 200,
            body: tokens == nil ? "restarted without tokens" : "restarted with persisted tokens"
        )
    }

    func storedTokens() async -> StoredTokens? {
        tokens.map { StoredTokens(accessToken: $0.accessToken, refreshToken: $0.refreshToken, expiresAt: $0.expiresAt) }
    }

    /// The `tokens` sign-in: the saved session becomes the client's own, persisted as if it had
    /// obtained it, with no grant to repeat.
    func restoreSession(_ saved: SavedSession) -> ClientOutcome {
        let restored = TokenSet(
            accessToken: saved.accessToken,
            expiresAt: saved.expiresAt,
            refreshToken: saved.refreshToken,
            receivedAt: now(),
            dpopBound: saved.tokenType.caseInsensitiveCompare("DPoP") == .orderedSame
        )
        replaceTokens(with: restored, persisting: true)
        loginGrant = nil
        mcpAuthorization = nil
        return .success(status: 200, body: "took the saved session")
    }

    /// Every change of tokens goes through here, so memory and the store agree unless a defect
    /// says otherwise.
    func replaceTokens(with new: TokenSet?, persisting: Bool) {
        tokens = new
        if persisting { store.save(new) }
    }

}
