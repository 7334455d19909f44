import Foundation
import Logging
import Synchronization

/// The provider's behaviour, independent of the network: routes a request to its endpoint,
/// lets the misbehaviour rules take over where they match, and journals the exchange.
public final class MockProvider: Sendable {
    public let settings: ProviderSettings
    public let clock: VirtualClock
    public let journal: Journal
    /// Where the provider is served, once a server has bound it.
    public let origins: OriginBook
    private let ledger: TokenLedger
    private let rules: RuleEngine
    private let tokenEndpoint: TokenEndpoint
    private let resourceEndpoint: ResourceEndpoint
    private let authorizationEndpoint: AuthorizationEndpoint
    private let revocationEndpoint: RevocationEndpoint
    private let introspectionEndpoint: IntrospectionEndpoint
    private let jwksEndpoint: JWKSEndpoint
    private let userinfoEndpoint: UserinfoEndpoint
    private let idTokenLedger: IDTokenLedger
    private let appServerLedger: TokenLedger
    private let appServerTokenEndpoint: AppServerTokenEndpoint
    private let appServerResourceEndpoint: ResourceEndpoint
    private let mcpEndpoint: MCPEndpoint
    /// The authorization server the MCP server may move to, where the scenario gives it one.
    private let secondAuthorizationServer: SecondAuthorizationServer?
    /// The authorization server the MCP server's metadata names and whose tokens it takes now.
    private let mcpAuthorizationServer = Mutex(AuthorizationServerID.first)
    private let registrationEndpoint: RegistrationEndpoint
    private let pushedAuthorizationEndpoint: PushedAuthorizationEndpoint
    private let deviceAuthorizationEndpoint: DeviceAuthorizationEndpoint
    private let deviceCodes: DeviceCodes
    private let jitter: JitterSource
    private let dpop: DPoPGate?
    /// How many requests a request number (`hold_until_request`) leaves out: those a sign-in in the
    /// client's own way made beyond one (one fewer than none for saved tokens, which make none).
    private let requestNumberShift = Mutex(0)

    private let logger: Logger?

    /// - Parameter tokenCapacity: how many issued tokens the provider remembers; past it, the
    ///   oldest are forgotten (and no longer accepted), so a long-running provider stays bounded.
    public init(
        settings: ProviderSettings = .init(),
        clock: VirtualClock = VirtualClock(),
        journal: Journal = Journal(),
        tokenCapacity: Int = 100_000,
        logger: Logger? = nil
    ) {
        self.logger = logger
        let ledger = TokenLedger(policy: settings.tokens, capacity: tokenCapacity)
        let codes = AuthorizationCodes()
        let origins = OriginBook()
        self.origins = origins
        let assertions =
            settings.clientAuthentication.usesAssertions
            ? ClientAssertionVerifier(
                clientID: settings.client.id,
                key: settings.clientAuthentication == .privateKeyJWT
                    ? .registeredKey : .clientSecret(settings.client.secret),
                // RFC 9126 §2: the PAR endpoint's URL is an audience too, for a push; so is the device
                // authorization endpoint's, where the client authenticates as at the token endpoint
                // (RFC 8628 §3.1) and a library addresses the assertion to the URL it posts to. Each
                // only where the assertion is posted: one for a push is no good at the token endpoint.
                audiences: { request in
                    guard let primary = origins.current?.primary else { return [] }
                    let postedTo = Endpoint(path: request.path, listener: request.listener)
                    let ownAudience = [Endpoint.pushedAuthorization, .deviceAuthorization].contains(postedTo)
                    return [primary + Endpoint.token.path, primary]
                        + (ownAudience ? [primary + request.path] : [])
                },
                unixNow: { Int(clock.now.timeIntervalSince1970) },
                capacity: tokenCapacity
            ) : nil
        let registrations = ClientRegistrations(policy: settings.registration)
        self.registrationEndpoint = RegistrationEndpoint(registrations: registrations)
        let authenticator = ClientAuthenticator(
            client: settings.client,
            // Only where the scenario changes how clients register: the token endpoint's hot path
            // stays as it was for every other scenario.
            registrations: settings.registration == ClientRegistrationPolicy() ? nil : registrations,
            assertions: assertions,
            publicClient: settings.clientAuthentication.isConfidential
                ? nil : PublicClientIdentification(clientID: settings.client.id)
        )
        let dpop = settings.dpop.map { policy in
            DPoPGate(
                policy: policy,
                verifier: DPoPProofVerifier(unixNow: { Int(clock.now.timeIntervalSince1970) }, capacity: tokenCapacity),
                nonces: DPoPNonces(),
                origins: origins
            )
        }
        self.dpop = dpop
        let idTokenLedger = IDTokenLedger(capacity: tokenCapacity)
        self.idTokenLedger = idTokenLedger
        self.settings = settings
        self.clock = clock
        self.journal = journal
        self.ledger = ledger
        self.rules = RuleEngine(rules: settings.rules)
        let deviceCodes = DeviceCodes()
        self.deviceCodes = deviceCodes
        self.deviceAuthorizationEndpoint = DeviceAuthorizationEndpoint(
            authenticator: authenticator,
            codes: deviceCodes,
            policy: settings.deviceAuthorization
        )
        self.tokenEndpoint = TokenEndpoint(
            settings: settings,
            authenticator: authenticator,
            ledger: ledger,
            codes: codes,
            idTokens: IDTokenIssuer(settings: settings, ledger: idTokenLedger, clock: clock),
            deviceCodes: deviceCodes,
            dpop: dpop
        )
        self.resourceEndpoint = ResourceEndpoint(ledger: ledger, dpop: dpop)
        let pushed = PushedAuthorizationRequests()
        self.authorizationEndpoint = AuthorizationEndpoint(
            settings: settings,
            codes: codes,
            pushed: pushed,
            registrations: registrations
        )
        self.pushedAuthorizationEndpoint = PushedAuthorizationEndpoint(
            authenticator: authenticator,
            requests: pushed,
            policy: settings.pushedAuthorization ?? PushedAuthorizationPolicy(required: false)
        )
        self.revocationEndpoint = RevocationEndpoint(authenticator: authenticator, ledger: ledger)
        self.introspectionEndpoint = IntrospectionEndpoint(
            settings: settings,
            authenticator: authenticator,
            ledger: ledger,
            clock: clock
        )
        self.jwksEndpoint = JWKSEndpoint(policy: settings.idTokens, ledger: idTokenLedger)
        self.userinfoEndpoint = UserinfoEndpoint(ledger: ledger, dpop: dpop)
        let appServerLedger = TokenLedger(policy: settings.appServerTokens, capacity: tokenCapacity, server: .appServer)
        self.appServerLedger = appServerLedger
        self.appServerTokenEndpoint = AppServerTokenEndpoint(
            ledger: appServerLedger,
            idTokens: idTokenLedger,
            clientID: settings.client.id
        )
        self.appServerResourceEndpoint = ResourceEndpoint(ledger: appServerLedger)
        self.mcpEndpoint = MCPEndpoint(policy: settings.mcp)
        self.secondAuthorizationServer = settings.mcp.secondAuthorizationServer.map {
            SecondAuthorizationServer(registration: $0, first: settings, clock: clock, tokenCapacity: tokenCapacity)
        }
        self.jitter = JitterSource(seed: settings.seed)
    }

    /// Every token issued so far and still remembered (see `tokenCapacity`): the provider's in
    /// order, then the app server's, then the second authorization server's.
    public var issuedTokens: [IssuedToken] {
        ledger.issued + appServerLedger.issued + (secondAuthorizationServer?.ledger.issued ?? [])
    }

    /// From now on the MCP server's Protected Resource Metadata names `server` as its authorization
    /// server, and the server takes only that server's tokens. `false` when the provider has no
    /// such server (no `provider.mcp.second_authorization_server`).
    public func moveMCPServer(to server: AuthorizationServerID) -> Bool {
        guard server == .first || secondAuthorizationServer != nil else { return false }
        mcpAuthorizationServer.withLock { $0 = server }
        return true
    }

    /// Every ID token issued so far and still remembered, in order: `id_token#N` is the N-th.
    public var issuedIDTokens: [IssuedIDToken] { idTokenLedger.issued }

    public func handle(_ request: ProviderRequest) -> ProviderReply {
        let now = clock.elapsed
        let (server, endpointPath) =
            secondAuthorizationServer == nil ? (.first, request.path) : AuthorizationServerID.route(request.path)
        let endpoint = Endpoint(path: endpointPath, listener: request.listener)
        let grant =
            endpoint?.takesGrants == true
            ? request.formField("grant_type").flatMap(GrantType.init(rawValue:)) : nil
        let decision = rules.decide(endpoint: endpoint, grant: grant, path: request.path, at: now)
        var response = answer(request, endpoint: endpoint, server: server, action: decision?.action, at: now)
        if grant == .deviceCode, decision?.action != nil, let deviceCode = request.formField("device_code") {
            let slowDown = JSONValue.parse(response.body)?["error"]?.stringValue == "slow_down"
            deviceCodes.noteScriptedPoll(deviceCode, at: now, slowDown: slowDown)
        }
        if let skew = settings.clockSkew {
            response.setHeader("Date", to: RetryLater.httpDate(clock.now.addingTimeInterval(skew.seconds)))
        }
        let delivery = decision?.delivery ?? .immediate
        journal.record { sequence in
            JournalEntry(
                sequence: sequence,
                at: now,
                request: request,
                response: response,
                endpoint: endpoint,
                grant: grant,
                appliedRule: decision?.ruleIndex,
                delivery: delivery
            )
        }
        logger?.info(
            Self.logMessage(request, response.status, delivery, rule: decision?.ruleIndex),
            source: "MockProvider"
        )
        return ProviderReply(response, delivery: jitter.resolve(delivery))
    }

    /// `POST /token → 503 (delayed 2.0 seconds) [rule 1]`, built in one string of the right size: the
    /// line is written for every request `serve` receives.
    private static func logMessage(
        _ request: ProviderRequest,
        _ status: Int,
        _ delivery: Delivery,
        rule: Int?
    ) -> Logger.Message {
        var line = ""
        line.reserveCapacity(request.method.utf8.count + request.target.utf8.count + 16)
        line += request.method
        line += " "
        line += request.target
        line += " → "
        line += String(status)
        if delivery != .immediate { line += " (\(delivery.label))" }
        if let rule { line += " [rule \(rule + 1)]" }
        return Logger.Message(stringLiteral: line)
    }

    /// The rule's action answers, given what it may need; without one, the request is served.
    private func answer(
        _ request: ProviderRequest,
        endpoint: Endpoint?,
        server: AuthorizationServerID,
        action: RuleAction?,
        at now: Duration
    ) -> ProviderResponse {
        if server == .second, let secondAuthorizationServer {
            // The second authorization server plays no scenario rule: it is there to be moved to.
            return secondAuthorizationServer.serve(
                request,
                endpoint: endpoint,
                origin: origin,
                at: now,
                unixNow: Int(clock.now.timeIntervalSince1970)
            )
        }
        guard let action else { return serve(request, endpoint: endpoint, at: now) }
        return action.answer(
            MisbehaviourContext(
                request: request,
                endpoint: endpoint,
                clock: clock,
                origins: origins,
                journal: journal,
                dpop: dpop,
                correctAnswer: { self.serve(request, endpoint: endpoint, at: now) },
                tokenAnswer: { alteration in
                    self.tokenEndpoint.serve(request, issuer: self.issuer, idTokenAlteration: alteration, at: now)
                }
            )
        )
    }

    private func serve(_ request: ProviderRequest, endpoint: Endpoint?, at now: Duration) -> ProviderResponse {
        switch endpoint {
        case .token: tokenEndpoint.serve(request, issuer: issuer, at: now)
        case .resource: resourceEndpoint.serve(request, at: now)
        case .authorize: authorizationEndpoint.serve(request, issuer: issuer, at: now)
        case .revoke: revocationEndpoint.serve(request)
        case .introspect: introspectionEndpoint.serve(request, at: now)
        case .metadata, .openIDConfiguration:
            MetadataEndpoint.serve(
                endpoint == .metadata ? .oauth : .openID,
                at: request.path,
                issuer: issuer,
                endpoints: .init(base: origin),
                settings: settings
            )
        case .pushedAuthorization: pushedAuthorizationEndpoint.serve(request, at: now)
        case .deviceAuthorization: deviceAuthorizationEndpoint.serve(request, issuer: issuer, at: now)
        case .jwks: jwksEndpoint.serve(at: now)
        case .userinfo: userinfoEndpoint.serve(request, at: now)
        case .appToken: appServerTokenEndpoint.serve(request, at: now)
        case .appResource: appServerResourceEndpoint.serve(request, at: now)
        case .mcp:
            mcpEndpoint.serve(
                request,
                origin: origin,
                ledger: mcpTakesTheSecondServersTokens ? secondAuthorizationServer?.ledger ?? ledger : ledger,
                at: now
            )
        case .register: registrationEndpoint.serve(request, unixNow: Int(clock.now.timeIntervalSince1970))
        case .protectedResourceMetadata, .protectedResourceMetadataRoot, .protectedResourceMetadataNamed:
            ProtectedResourceMetadataEndpoint.serve(
                origin: origin,
                issuer: mcpTakesTheSecondServersTokens ? SecondAuthorizationServer.issuer(origin: origin) : issuer,
                policy: settings.mcp
            )
        case nil:
            .notFound
        }
    }

    private var mcpTakesTheSecondServersTokens: Bool { mcpAuthorizationServer.withLock { $0 == .second } }

    /// RFC 9207 / RFC 8414: the issuer is the primary origin, with the path the settings give it.
    public var issuer: String { origin + (settings.issuerPath ?? "") }

    /// The primary origin, where every endpoint is served.
    var origin: String { origins.current?.primary ?? "http://127.0.0.1" }

    /// The number a scenario gives the latest request (`hold_until_request: N` waits for request
    /// no. N): its journal sequence, with each sign-in in the client's own way counted as one
    /// request, so that the numbers hold whichever way the client signed in.
    public var requestNumber: Int { journal.lastSequence - requestNumberShift.withLock { $0 } }

    /// A sign-in in the client's own way made `count` requests: from now on they count as one.
    public func countSignInAsOneRequest(madeRequests count: Int) {
        requestNumberShift.withLock { $0 += count - 1 }
    }

    /// The sign-in an application made before the scenario, whose tokens it saved and now hands
    /// to the client (the `tokens` sign-in): a password grant for the provider's user, made as the
    /// client is registered, sent to the token endpoint in process. It is journaled, answered by
    /// the scenario's rules and numbered like any sign-in, so that the numbers and counts of a
    /// scenario hold whichever way the client signed in, and the session holds what the token
    /// response said.
    public func signInForASavedSession() -> ProviderResponse {
        var fields = [
            ("grant_type", GrantType.password.rawValue), ("username", settings.user.username),
            ("password", settings.user.password),
        ]
        var headers = [HeaderField("Content-Type", "application/x-www-form-urlencoded")]
        if settings.clientAuthentication.isConfidential && !settings.clientAuthentication.usesAssertions {
            let credentials = "\(Self.formEncoded(settings.client.id)):\(Self.formEncoded(settings.client.secret))"
            headers.append(HeaderField("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
        } else {
            fields.append(("client_id", settings.client.id))
        }
        let body = fields.map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&")
        var request = ProviderRequest(method: "POST", target: Endpoint.token.path, headers: headers, body: body)
        request.madeByTheHarness = true
        return handle(request).response
    }

    /// RFC 6749 Appendix B: the encoding of a form field, and of each half of HTTP Basic credentials.
    private static func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        )
            ?? text
    }

    /// Revokes a token now, as a user signing out elsewhere would (RFC 7009 semantics), at
    /// whichever server issued it.
    public func revoke(token value: String) {
        ledger.revoke(value)
        appServerLedger.revoke(value)
        secondAuthorizationServer?.ledger.revoke(value)
    }
}
