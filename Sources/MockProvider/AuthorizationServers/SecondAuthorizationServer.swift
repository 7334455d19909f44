/// The provider's second authorization server (`AuthorizationServerID.second`), for an MCP server
/// that moves to it (MCP authorization 2026-07-28, "Authorization Server Binding"): an issuer,
/// endpoints, client registrations and tokens of its own. It holds no registration made before the
/// scenario, knows none of the first server's clients, codes or tokens, and the first knows none of
/// its: a client that presents one server's credentials to the other is refused, as two
/// independent authorization servers would refuse it.
struct SecondAuthorizationServer: Sendable {
    /// What it issues: `as2-at-N` and `as2-rt-N`, named `as2_access_token#N` and `as2_refresh_token#N`.
    let ledger: TokenLedger
    private let settings: ProviderSettings
    private let authorizationEndpoint: AuthorizationEndpoint
    private let tokenEndpoint: TokenEndpoint
    private let registrationEndpoint: RegistrationEndpoint

    /// - Parameters:
    ///   - registration: how a client gets a client ID here (`pre_registered` is always false).
    ///   - first: the first server's settings, whose user, token lifetimes and redirect URI rules
    ///     this one shares.
    init(registration: ClientRegistrationPolicy, first: ProviderSettings, clock: VirtualClock, tokenCapacity: Int) {
        var settings = ProviderSettings(
            user: first.user,
            tokens: first.tokens,
            seed: first.seed,
            redirectURIs: first.redirectURIs,
            idTokens: first.idTokens
        )
        settings.issuerPath = AuthorizationServerID.secondPath
        settings.registration = registration
        settings.registration.preRegistered = false
        self.settings = settings
        let registrations = ClientRegistrations(policy: settings.registration, idPrefix: "as2-")
        let codes = AuthorizationCodes()
        ledger = TokenLedger(policy: settings.tokens, capacity: tokenCapacity, server: .secondAuthorizationServer)
        authorizationEndpoint = AuthorizationEndpoint(
            settings: settings,
            codes: codes,
            pushed: PushedAuthorizationRequests(),
            registrations: registrations
        )
        tokenEndpoint = TokenEndpoint(
            settings: settings,
            authenticator: ClientAuthenticator(client: settings.client, registrations: registrations),
            ledger: ledger,
            codes: codes,
            idTokens: IDTokenIssuer(settings: settings, ledger: IDTokenLedger(capacity: tokenCapacity), clock: clock),
            deviceCodes: DeviceCodes(),
            dpop: nil
        )
        registrationEndpoint = RegistrationEndpoint(registrations: registrations)
    }

    /// Its issuer identifier: the provider's origin with `/as2`.
    static func issuer(origin: String) -> String { origin + AuthorizationServerID.secondPath }

    /// The answer of `endpoint` at this server; a 404 for any endpoint it does not serve.
    func serve(
        _ request: ProviderRequest,
        endpoint: Endpoint?,
        origin: String,
        at now: Duration,
        unixNow: Int
    ) -> ProviderResponse {
        let issuer = Self.issuer(origin: origin)
        switch endpoint {
        case .authorize: return authorizationEndpoint.serve(request, issuer: issuer, at: now)
        case .token: return tokenEndpoint.serve(request, issuer: issuer, at: now)
        case .register: return registrationEndpoint.serve(request, unixNow: unixNow)
        case .metadata:
            return MetadataEndpoint.serve(
                .oauth,
                at: request.path,
                issuer: issuer,
                endpoints: .init(base: issuer, authorizationCodeOnly: true),
                settings: settings
            )
        default: return .notFound
        }
    }
}
