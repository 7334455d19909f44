import MockProvider

/// A validated scenario: how the provider misbehaves, what the client is asked to do,
/// and what a conforming client must have done.
public struct Scenario: Sendable, Equatable {
    public var id: String
    public var title: String
    public var summary: String?
    public var area: Area
    /// The behaviour family the clients table counts it in (`family:`); nil for a scenario that
    /// names none, which the table shows under "Other scenarios".
    public var family: BehaviourFamily?
    public var level: Level
    /// Where the requirement comes from, e.g. "RFC 6749 §6".
    public var spec: [String]
    /// The OpenID Foundation conformance-suite modules (`oidcc-client-test-*`) that test the same
    /// behaviour, for users who know that suite.
    public var oidfModules: [String]
    /// Free-form labels for selecting scenarios (`conformance list --tag`), e.g. "rotation".
    public var tags: [String]
    /// Capabilities a client must declare; a client without them gets a skipped result.
    public var requires: [Capability]
    public var provider: ProviderSettings
    public var steps: [Step]
    public var expectations: [Expectation]
    /// What must have happened for the checks to mean anything (`precondition:`): the resource
    /// was called, a refresh was made, a key was fetched. Judged like expectations; one that does
    /// not hold makes the verdict inconclusive instead of a pass or a failure. Every provider rule
    /// must also have answered at least one request, without being listed here.
    public var preconditions: [Expectation]
    /// The level of each expectation that states its own (`level:` beside it), by its index in
    /// `expectations`; the others take the scenario's `level`.
    public var expectationLevels: [Int: Level]
    /// The capabilities an expectation needs to be judged (`requires:` beside it), by its index in
    /// `expectations`: for a client that lacks one, that check is not judged, and the rest of the
    /// scenario still is. A check about a behaviour only some designs have gates only itself.
    public var expectationRequirements: [Int: [Capability]]
    /// The matrix combination this scenario was made from, e.g. `["code": "invalid_grant"]`;
    /// empty for a scenario without a matrix.
    public var parameters: [String: String]
    /// The file the scenario came from, when it came from one.
    public var file: String?

    public init(
        id: String,
        title: String,
        summary: String? = nil,
        area: Area,
        family: BehaviourFamily? = nil,
        level: Level,
        spec: [String] = [],
        oidfModules: [String] = [],
        tags: [String] = [],
        requires: [Capability] = [],
        provider: ProviderSettings = .init(),
        steps: [Step],
        expectations: [Expectation],
        preconditions: [Expectation] = [],
        expectationLevels: [Int: Level] = [:],
        expectationRequirements: [Int: [Capability]] = [:],
        parameters: [String: String] = [:],
        file: String? = nil
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.area = area
        self.family = family
        self.level = level
        self.spec = spec
        self.oidfModules = oidfModules
        self.tags = tags
        self.requires = requires
        self.provider = provider
        self.steps = steps
        self.expectations = expectations
        self.preconditions = preconditions
        self.expectationLevels = expectationLevels
        self.expectationRequirements = expectationRequirements
        self.parameters = parameters
        self.file = file
    }

    /// The level the expectation at `index` is judged at.
    public func level(ofExpectationAt index: Int) -> Level {
        expectationLevels[index] ?? level
    }

    /// Whether a rule places an ID token's times relative to the clock skew the client declares,
    /// so that the scenario means something only for a client that declares one.
    public var usesClientIDTokenClockSkew: Bool {
        provider.rules.contains { rule in
            rule.action?.contains { ($0 as? IDTokenAlteration)?.fromNowInClientSkews.isEmpty == false } ?? false
        }
    }

    /// Whether a check or a step is written around the JWKS refetch interval the client declares.
    public var usesClientJWKSRefetchInterval: Bool {
        func uses(_ expression: TimeExpression) -> Bool {
            expression.terms.contains { $0.term == .clientJWKSRefetchInterval }
        }
        let inChecks = expectations.flatMap(\.check.timeExpressions).contains(where: uses)
        let inSteps = steps.contains { step in
            if case .advanceTo(let instant) = step.action { return uses(instant) }
            return false
        }
        return inChecks || inSteps
    }

    /// Why only a confidential client (one with a secret) can be judged on the scenario, or `nil`
    /// when a public one can: a step uses the client credentials grant, ID tokens are MACed with
    /// the client secret, or a check is about the secret and would hold without evidence.
    public var confidentialClientNeed: String? {
        let usesClientCredentials = steps.contains { step in
            switch step.action {
            case .client(.login(.clientCredentials)), .concurrently(_, .login(.clientCredentials)): true
            default: false
            }
        }
        if usesClientCredentials { return "the client credentials grant is a confidential client's (RFC 6749 §4.4)" }
        if provider.idTokens.algorithm == .hs256 { return "its ID tokens are MACed with the client secret (HS256)" }
        if (expectations + preconditions).contains(where: { $0.check.isAboutTheClientSecret }) {
            return "it checks what becomes of the client secret"
        }
        return nil
    }

    /// What `requires` lists plus what the scenario needs without saying so: the capabilities of
    /// the steps it uses (a virtual clock for `advance`, concurrency for `concurrently`, …), and a
    /// custom CA when the provider speaks HTTPS.
    /// The ways of signing in a client must list in its profile's `sign_in` besides those
    /// capabilities: `native_app` for `native_sign_in` steps, which a library that hands the
    /// redirect to the application (with `authorization_code` alone) cannot carry out.
    public var requiredSignInMethods: [SignInMethod] {
        steps.contains { $0.action == .client(.nativeSignIn) } ? [.nativeApp] : []
    }

    public var requiredCapabilities: [Capability] {
        var needed = requires
        let byProvider: [Capability] =
            (provider.tls == nil ? [] : [.customCA])
            + (provider.clientAuthentication == .privateKeyJWT ? [.privateKeyJWT] : [])
            + (provider.clientAuthentication == .clientSecretJWT ? [.clientSecretJWT] : [])
            + (provider.pushedAuthorization == nil ? [] : [.pushedAuthorizationRequests])
            + (provider.dpop == nil ? [] : [.dpop])
            + (provider.registration.requiredCapability.map { [$0] } ?? [])
        for capability in steps.flatMap(\.action.requiredCapabilities) + byProvider
        where !needed.contains(capability) {
            needed.append(capability)
        }
        return needed
    }
}

extension ClientRegistrationPolicy {
    /// What a client must declare to be judged where the provider holds no registration for it:
    /// the way the spec's order ("Client Registration") has it get its client ID there, a Client ID
    /// Metadata Document where one is taken, else Dynamic Client Registration. A client without
    /// it is skipped with that reason, not failed for a registration it cannot make.
    var requiredCapability: Capability? {
        guard !preRegistered else { return nil }
        if clientIDMetadataDocuments { return .clientIDMetadataDocument }
        return dynamicRegistration ? .dynamicRegistration : nil
    }
}

public enum Area: String, Sendable, Hashable, CaseIterable {
    case refresh, retry, errors, concurrency, security, tls
    /// OpenID Connect: ID tokens, signing keys, discovery, userinfo.
    case oidc
    /// The device authorization grant (RFC 8628): polling discipline.
    case device
    /// DPoP (RFC 9449): proofs, nonces and sender-constrained tokens.
    case dpop
    /// MCP authorization (Model Context Protocol, 2026-07-28): an MCP client's discovery of its
    /// server's authorization server, and `resource` (RFC 8707).
    case mcp
}

/// How strongly the spec asks for the behaviour. POLICY checks take the client's declared value.
/// Each check of a scenario has a level (its own, or the scenario's); a failed scenario fails at
/// the strictest level among its failed checks, and `--fail-on` says which levels break a build.
public enum Level: String, Sendable, Hashable, CaseIterable, Codable {
    case must = "MUST"
    case should = "SHOULD"
    case policy = "POLICY"

    /// MUST before SHOULD before POLICY: how much a failure at this level weighs.
    public var strictness: Int {
        switch self {
        case .must: 2
        case .should: 1
        case .policy: 0
        }
    }

    /// The strictest of the levels, or nil for none.
    public static func strictest(_ levels: some Sequence<Level>) -> Level? {
        levels.max { $0.strictness < $1.strictness }
    }

    /// What the level means for a client that fails the scenario.
    public var meaning: String {
        switch self {
        case .must: "the specification requires it"
        case .should: "strong practice in mature client libraries"
        case .policy: "libraries differ; the check takes the value the client declares in its profile"
        }
    }
}

/// What a client declares it can do, in its profile.
public enum Capability: String, Sendable, Hashable, CaseIterable {
    /// Refreshes an access token before it expires, inside a declared window.
    case proactiveRefresh = "proactive_refresh"
    /// On a 401 `invalid_token`, refreshes once and replays the request once.
    case refreshOn401 = "refresh_on_401"
    /// Runs the authorization code flow (`authorize` steps), with PKCE, `state` and `iss` checks.
    case authorizationCode = "authorization_code"
    /// Persists its tokens and can be restarted (`restart` steps).
    case restart
    /// Trusts a CA file it is given, so it can talk to the provider over HTTPS (`provider.tls`).
    case customCA = "custom_ca"
    /// Pins the provider's public key it is given (`ClientEnvironment.pinnedPublicKeySHA256`):
    /// refuses a certificate with another key, even one issued by the CA it trusts.
    case pinning
    /// Reads time from the harness's virtual clock (`advance` and `advance_to` steps): in process
    /// from `ClientEnvironment.clock`; out of process from each message's `now`, or under libfaketime.
    case virtualClock = "virtual_clock"
    /// Carries out several operations at once (`concurrently` steps).
    case concurrency
    /// Signs users in with OpenID Connect (`sign_in` and `userinfo` steps): a nonce in each
    /// authentication request, the ID token validated, the identity it accepted reported.
    case openID = "openid"
    /// Verifies the ID token's signature with the provider's keys. A profile that declares
    /// `id_token_signature: tls_only` (OIDC Core §3.1.3.7 step 6 lets a code-flow client rely on
    /// TLS) lacks it, so the signature scenarios are a declared gap, never a silent pass.
    case idTokenSignature = "id_token_signature"
    /// Trades the signed-in user's ID token at the app's own server for the app's tokens
    /// (`exchange` steps; RFC 8693 or RFC 7523), and uses and refreshes those at that server.
    case idTokenExchange = "id_token_exchange"
    /// Authenticates at the token endpoint with `private_key_jwt` assertions signed by the key it
    /// is given (`ClientEnvironment.clientAssertionKey`; RFC 7523 §2.2, OIDC Core §9), when the
    /// scenario registers it so (`provider.client_authentication: private_key_jwt`).
    case privateKeyJWT = "private_key_jwt"
    /// Authenticates at the token endpoint with `client_secret_jwt` assertions, HS256 with its
    /// client secret (RFC 7523 §2.2, OIDC Core §9), when the scenario registers it so
    /// (`provider.client_authentication: client_secret_jwt`, `ClientEnvironment.clientAuthentication`).
    case clientSecretJWT = "client_secret_jwt"
    /// Pushes its authorization requests to the endpoint it is given
    /// (`ProviderEndpoints.pushedAuthorization`, RFC 9126) and opens only `client_id`
    /// and the `request_uri`, when the scenario's provider takes pushes (`provider.pushed_authorization`).
    case pushedAuthorizationRequests = "pushed_authorization_requests"
    /// Runs the device authorization grant (`device_sign_in` steps, RFC 8628): reports what the user
    /// is shown and polls as the provider's interval and `slow_down` answers say.
    case deviceGrant = "device_grant"
    /// Proves possession of a key with DPoP (RFC 9449) when the scenario's provider offers it
    /// (`ClientEnvironment.dpopSigningAlgorithms`): a proof with every token request and with every
    /// use of a bound token, the server's nonces followed.
    case dpop
    /// Declared by `policies.dpop_downgrade: refuse`: asked for a DPoP-bound token and answered
    /// `token_type: Bearer`, the client refuses the tokens (RFC 9449 §7.1, catalogue DP-07).
    case dpopDowngradeRefused = "dpop_downgrade_refused"
    /// Declared by `policies.dpop_downgrade: use_as_bearer`: such tokens are used as bearer tokens.
    case dpopDowngradeUsedAsBearer = "dpop_downgrade_used_as_bearer"
    /// Signs in to an MCP server as MCP authorization (2026-07-28) has a client do it (`mcp_sign_in`
    /// steps): from the server's 401 to its Protected Resource Metadata (RFC 9728) and its
    /// authorization server's metadata (RFC 8414, OpenID Connect Discovery) in the order the spec
    /// gives, refusing documents that name another resource or issuer or offer no S256, and naming
    /// the server as `resource` (RFC 8707) in its authorization and token requests.
    case mcpDiscovery = "mcp_discovery"
    /// Registers itself by Dynamic Client Registration (RFC 7591) at the `registration_endpoint`
    /// the authorization server's metadata names, when its environment carries no `client_id`
    /// (`provider.client_registration.pre_registered: false`).
    case dynamicRegistration = "dynamic_registration"
    /// Identifies itself by its Client ID Metadata Document's URL (MCP authorization 2026-07-28),
    /// which its profile declares (`client_id_metadata_url`, in the environment as
    /// `client_id_metadata_document_url`), where the authorization server advertises
    /// `client_id_metadata_document_supported`.
    case clientIDMetadataDocument = "client_id_metadata_document"
    /// Signs in to an MCP server that publishes no Protected Resource Metadata as MCP authorization
    /// 2025-03-26 had a client do it: the authorization server's metadata at the server's origin
    /// (RFC 8414), else the default endpoints `/authorize`, `/token` and `/register` there. A
    /// client of 2026-07-28 alone need not: the spec has it abort or use values it was configured with.
    case mcpLegacyDiscovery = "mcp_legacy_discovery"

    /// Capabilities a profile declares through a policy, never in its list.
    static let declaredByPolicy: Set<Capability> = [
        .idTokenSignature, .dpopDowngradeRefused, .dpopDowngradeUsedAsBearer,
    ]
}
