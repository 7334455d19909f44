/// The provider's behaviour, independent of the network: routes a request to its endpoint,
/// lets the misbehaviour rules take over where they match, and journals the exchange.
public final class MockProvider: Sendable {
    public let settings: ProviderSettings
    public let clock: VirtualClock
    public let journal: Journal
    private let ledger: TokenLedger
    private let rules: RuleEngine
    private let tokenEndpoint: TokenEndpoint
    private let resourceEndpoint: ResourceEndpoint

    public init(settings: ProviderSettings = .init(), clock: VirtualClock = VirtualClock(), journal: Journal = Journal()) {
        let ledger = TokenLedger(policy: settings.tokens)
        self.settings = settings
        self.clock = clock
        self.journal = journal
        self.ledger = ledger
        self.rules = RuleEngine(rules: settings.rules)
        self.tokenEndpoint = TokenEndpoint(settings: settings, ledger: ledger)
        self.resourceEndpoint = ResourceEndpoint(ledger: ledger)
    }

    /// Every token issued so far, in order.
    public var issuedTokens: [IssuedToken] { ledger.issued }

    public func handle(_ request: ProviderRequest) -> ProviderResponse {
        let now = clock.elapsed
        let endpoint = Endpoint(path: request.path)
        let grant = endpoint == .token ? request.formField("grant_type").flatMap(GrantType.init(rawValue:)) : nil
        let decision = rules.decide(endpoint: endpoint, grant: grant)
        let response: ProviderResponse
        switch decision?.action {
        case .respond(let scripted):
            response = scripted
        case .oauthError(let error):
            response = .oauthError(error)
        case .alterTokenResponse(let alteration):
            response = Self.alter(serve(request, endpoint: endpoint, at: now), with: alteration)
        case nil:
            response = serve(request, endpoint: endpoint, at: now)
        }
        journal.record { sequence in
            JournalEntry(
                sequence: sequence, at: now, request: request, response: response,
                endpoint: endpoint, grant: grant, appliedRule: decision?.ruleIndex
            )
        }
        return response
    }

    private func serve(_ request: ProviderRequest, endpoint: Endpoint?, at now: Duration) -> ProviderResponse {
        switch endpoint {
        case .token: tokenEndpoint.serve(request, at: now)
        case .resource: resourceEndpoint.serve(request, at: now)
        case nil: ProviderResponse(status: 404, headers: [HeaderField("Content-Type", "text/plain")], body: "not found\n")
        }
    }

    /// Alters successful JSON token responses only; an error stays the error it was.
    private static func alter(_ response: ProviderResponse, with alteration: TokenResponseAlteration) -> ProviderResponse {
        guard response.status == 200, let body = JSONValue.parse(response.body) else { return response }
        var altered = response
        altered.body = alteration.apply(to: body).serialized()
        return altered
    }
}
