/// The reference client's MCP authorization decisions (MCP authorization 2026-07-28), each set to
/// its conforming value; each defect below switches exactly one.
public struct MCPBehaviour: Sendable, Equatable {
    /// Where the client looks for the server's Protected Resource Metadata, in order.
    public enum MetadataOrder: Sendable, Equatable {
        /// The spec's: the challenge's `resource_metadata`, then the path-based well-known URL,
        /// then the root one ("Protected Resource Metadata Discovery Requirements").
        case challengeThenPathThenRoot
        /// The defect: the challenge's URL ignored, the well-known URLs tried.
        case ignoresChallenge
        /// The defect: the root well-known URL before the path-based one.
        case rootBeforePath
        /// The defect: the path-based well-known URL only, no fallback to the root.
        case noRootFallback
    }

    /// Which authorization server metadata URLs the client builds from the issuer, in order.
    public enum ServerMetadataOrder: Sendable, Equatable {
        /// The spec's ("Authorization Server Metadata Discovery"): for an issuer with a path, RFC 8414
        /// path insertion, OpenID Connect path insertion, then OpenID Connect path appending; for
        /// one without, RFC 8414 then OpenID Connect.
        case specOrder
        /// The defect: the OpenID Connect URLs before RFC 8414's.
        case openIDFirst
        /// The defect: the issuer's path dropped, only the origin's well-known URLs tried.
        case ignoresIssuerPath
    }

    /// How the client gets its client ID at an authorization server ("Client Registration").
    public enum RegistrationOrder: Sendable, Equatable {
        /// The spec's: pre-registered, then its Client ID Metadata Document where advertised, then
        /// Dynamic Client Registration, then an error.
        case specOrder
        /// The defect: registers dynamically even though it is pre-registered.
        case registersDespitePreRegistration
        /// The defect: registers dynamically where the server advertises metadata documents too.
        case dynamicBeforeMetadataDocument
        /// The defect: uses its metadata document's URL as `client_id` where none is advertised.
        case metadataDocumentUnadvertised
    }

    /// What the client does for a server that publishes no Protected Resource Metadata
    /// (`ReferenceClient+MCPLegacyDiscovery`): MCP authorization 2025-03-26's discovery.
    public enum LegacyDiscovery: Sendable, Equatable {
        /// The authorization server's metadata at the server's origin, else the default endpoints.
        case metadataThenDefaults
        /// The defect: straight to the default endpoints.
        case defaultsOnly
        /// The defect: the metadata or nothing.
        case metadataOnly
        /// A client of MCP authorization 2026-07-28 alone: the sign-in ends there.
        case unsupported
    }

    /// What the client makes of the answer to its registration (RFC 7591 §3.2).
    public enum RegistrationAnswer: Sendable, Equatable {
        /// A refusal (§3.2.2) or a 201 without `client_id` (§3.2.1) ends the sign-in with an error.
        case checked
        /// The defect: a refusal is read as a registration, and the sign-in goes on without a client ID.
        case refusalIgnored
        /// The defect: a 201 without `client_id` is taken, and the sign-in goes on without one.
        case clientIDNotRequired
    }
    /// The `token_endpoint_auth_method` a dynamic registration asks for (RFC 7591 §2).
    public enum RegistrationAuthMethod: Sendable, Equatable {
        /// One the authorization server offers in `token_endpoint_auth_methods_supported` (RFC 8414
        /// §2; `client_secret_basic` where the member is absent, its default), in the client's
        /// order of preference (`ReferenceClient.registrationAuthMethods`).
        case offered
        /// The defect: `none` whatever the server offers.
        case alwaysNone
        /// The defect: the member left out whatever the server offers, so the client asks for RFC
        /// 7591 §2's default, `client_secret_basic`.
        case omitted
    }
    /// What the client does with a 403 `insufficient_scope` from the MCP server ("Step-Up
    /// Authorization Flow").
    public enum StepUp: Sendable, Equatable {
        /// The spec's: re-authorize inside the call, asking for the scopes it had and the
        /// challenge's ("Scope Selection Strategy": previously granted scopes added).
        case unionOfHeldAndChallenged
        /// The defect: re-authorize asking for the challenge's scope alone, the granted ones dropped.
        case challengedOnly
        /// The defect: the 403 is the call's failure; no re-authorization.
        case never
    }

    /// How many times the client steps up for one resource and operation before the failure is
    /// permanent: the spec's "no more than a few times".
    static let mostStepUps = 2

    public var metadataOrder = MetadataOrder.challengeThenPathThenRoot
    /// RFC 9728 §3.3: the document's `resource` must be the server it was fetched for. Off, any is taken.
    public var checksResource = true
    public var serverMetadataOrder = ServerMetadataOrder.specOrder
    /// RFC 8414 §3.3, MCP: the metadata's `issuer` must be the one its URL was built from. Off, any is taken.
    public var checksIssuer = true
    /// MCP "Authorization Code Protection": without `S256` in `code_challenge_methods_supported`,
    /// the client refuses to proceed. Off, it proceeds with S256 anyway.
    public var requiresS256 = true
    /// RFC 8707 §2: the server's canonical URI as `resource` in the authorization request.
    public var resourceInAuthorizationRequest = true
    /// RFC 8707 §2: the same `resource` in every token request: the code's and each refresh's.
    public var resourceInTokenRequests = true
    /// MCP "Scope Selection Strategy": the challenge's `scope` first, then the metadata's
    /// `scopes_supported`. Off, the challenge's scope is ignored.
    public var scopeFromChallenge = true
    /// "Scope Selection Strategy": without a challenge scope, every scope the Protected Resource
    /// Metadata lists. Off, the first of them alone is asked for.
    public var scopeFromResourceMetadata = true
    /// "Scope Selection Strategy": neither the challenge nor the Protected Resource Metadata names
    /// a scope, so `scope` is omitted. On, the authorization server's `scopes_supported` is asked
    /// for instead (a step the spec does not have).
    public var scopeFromServerMetadata = false
    /// "Refresh Tokens": `offline_access` is added to the scope only when the authorization server
    /// lists it in `scopes_supported`. Off, it is added always.
    public var offlineAccessOnlyWhenListed = true
    public var stepUp = StepUp.unionOfHeldAndChallenged
    /// "Step-Up Authorization Flow": at most `mostStepUps` re-authorizations for one resource and
    /// operation, then a permanent failure. Off, it steps up as often as it is refused.
    public var boundsStepUps = true
    /// "Step-Up Authorization Flow": attempts are tracked per resource and operation, so a call
    /// that failed for scope after its step-ups fails the next call of the operation without asking
    /// the user again, until one succeeds. Off, each call starts counting afresh.
    public var countsStepUpsAcrossCalls = true
    /// MCP "Authorization Response Validation": `iss` compared with the recorded issuer as a
    /// simple string, never normalized.
    var issuerComparison = ExpectedIssuer.Comparison.exact
    /// The defect: a response without `iss` refused although the authorization server never
    /// advertised sending it (the table's last row says proceed).
    public var demandsUnadvertisedIssuer = false
    public var registrationOrder = RegistrationOrder.specOrder
    /// MCP "Application Type and Redirect URI Constraints": a registration names its
    /// `application_type`. Off, it is left out.
    public var sendsApplicationType = true
    /// MCP "Refresh Tokens": a client that desires refresh tokens names `refresh_token` among the
    /// `grant_types` it registers. Off, it registers `authorization_code` alone (and refreshes anyway).
    public var registersRefreshTokenGrant = true
    public var registrationAnswer = RegistrationAnswer.checked
    /// RFC 7591 §3.2.1: the client authenticates as the answer says it was registered, which may
    /// be another method than it asked for. Off, it authenticates as it asked (a public client).
    public var usesRegisteredAuthMethod = true
    /// MCP "Authorization Server Binding": a client ID obtained by registration is used only at the
    /// authorization server that issued it, and the client registers anew at another. Off, it
    /// keeps using its latest registration wherever the MCP server's metadata leads.
    public var registrationsBoundToTheirServer = true
    /// The same for the pre-registered client ID, which is the environment's `issuer`'s: at another
    /// authorization server the client has none (and says so, where it cannot register). Off, it
    /// uses it at any.
    public var preRegistrationBoundToItsServer = true
    public var legacyDiscovery = LegacyDiscovery.metadataThenDefaults
    public var registrationAuthMethod = RegistrationAuthMethod.offered
    /// RFC 6749 §2.3.1, RFC 7591 §2: a client registered for `client_secret_post` sends its secret
    /// in the form of each token request. Off, it sends it by HTTP Basic whatever it registered.
    public var sendsSecretAsRegistered = true

    public init() {}

    public static let conforming = MCPBehaviour()
}

extension MCPBehaviour {
    /// The deliberate bugs of its knobs (`ClientBehaviour.mcp`), each switching one knob from its
    /// conforming value, as a real MCP client's bug would: `DefectiveClient.catalogue` holds them,
    /// and `conformance selftest` proves that some scenario fails each.
    static let defects: [DefectiveClient] = [
        .defect(
            "mcp-ignores-challenge-metadata-url",
            "ignores the resource_metadata URL of the MCP server's 401 and looks at the well-known URLs"
        ) { $0.mcp.metadataOrder = .ignoresChallenge },
        .defect(
            "mcp-root-metadata-first",
            "looks for Protected Resource Metadata at the root well-known URL before the path-based one"
        ) { $0.mcp.metadataOrder = .rootBeforePath },
        .defect(
            "mcp-no-root-metadata-fallback",
            "looks for Protected Resource Metadata at the path-based well-known URL only"
        ) { $0.mcp.metadataOrder = .noRootFallback },
        .defect(
            "mcp-any-metadata-resource",
            "takes Protected Resource Metadata whose resource names another server"
        ) { $0.mcp.checksResource = false },
        .defect(
            "mcp-openid-configuration-first",
            "asks for the OpenID configuration before the RFC 8414 authorization server metadata"
        ) { $0.mcp.serverMetadataOrder = .openIDFirst },
        .defect(
            "mcp-drops-issuer-path",
            "looks for an issuer's metadata at its origin's well-known URLs, leaving out the issuer's path"
        ) { $0.mcp.serverMetadataOrder = .ignoresIssuerPath },
        .defect(
            "mcp-any-metadata-issuer",
            "uses authorization server metadata whose issuer is not the one it asked about"
        ) { $0.mcp.checksIssuer = false },
        .defect(
            "mcp-proceeds-without-s256",
            "signs in at an authorization server that does not list S256 in code_challenge_methods_supported"
        ) { $0.mcp.requiresS256 = false },
        .defect(
            "mcp-no-resource-in-authorization-request",
            "leaves resource out of the authorization request"
        ) { $0.mcp.resourceInAuthorizationRequest = false },
        .defect(
            "mcp-no-resource-in-token-requests",
            "leaves resource out of its token requests"
        ) { $0.mcp.resourceInTokenRequests = false },
        .defect(
            "mcp-ignores-challenge-scope",
            "asks for every scope the metadata lists instead of the scope the MCP server's 401 names"
        ) { $0.mcp.scopeFromChallenge = false },
        .defect(
            "mcp-first-metadata-scope-only",
            "asks for the first scope the Protected Resource Metadata lists, not all of them, when the MCP server's 401 names none"
        ) { $0.mcp.scopeFromResourceMetadata = false },
        .defect(
            "mcp-scope-from-server-metadata",
            "asks for the authorization server's scopes_supported when neither the MCP server's 401 nor its metadata names a scope"
        ) { $0.mcp.scopeFromServerMetadata = true },
        .defect(
            "mcp-offline-access-unlisted",
            "adds offline_access to the scope it asks for although the authorization server does not list it"
        ) { $0.mcp.offlineAccessOnlyWhenListed = false },
        .defect(
            "mcp-no-step-up",
            "fails the call on the MCP server's 403 insufficient_scope instead of asking the user for the scope it names"
        ) { $0.mcp.stepUp = .never },
        .defect(
            "mcp-step-up-drops-granted-scopes",
            "steps up asking for the 403's scope alone, dropping the scopes it was granted"
        ) { $0.mcp.stepUp = .challengedOnly },
        .defect(
            "mcp-step-up-unbounded",
            "steps up again each time the MCP server answers 403 insufficient_scope, with no limit"
        ) { $0.mcp.boundsStepUps = false },
        .defect(
            "mcp-step-up-limit-per-call",
            "counts its step-ups per call, so each new call of an operation that never gets its scope asks the user again"
        ) { $0.mcp.countsStepUpsAcrossCalls = false },
        .defect(
            "mcp-normalizes-iss",
            "compares the authorization response's iss with the issuer after case folding and dropping a trailing slash"
        ) { $0.mcp.issuerComparison = .normalized },
        .defect(
            "mcp-demands-unadvertised-iss",
            "refuses an authorization response without iss from an authorization server that never advertised sending it"
        ) { $0.mcp.demandsUnadvertisedIssuer = true },
        .defect(
            "mcp-registers-when-pre-registered",
            "registers dynamically at an authorization server it is pre-registered with, instead of using its client ID"
        ) { $0.mcp.registrationOrder = .registersDespitePreRegistration },
        .defect(
            "mcp-dcr-when-cimd-advertised",
            "registers dynamically where the authorization server advertises Client ID Metadata Documents"
        ) { $0.mcp.registrationOrder = .dynamicBeforeMetadataDocument },
        .defect(
            "mcp-cimd-when-not-advertised",
            "uses its Client ID Metadata Document URL as client_id where the authorization server does not advertise them"
        ) { $0.mcp.registrationOrder = .metadataDocumentUnadvertised },
        .defect(
            "mcp-registers-without-application-type",
            "leaves application_type out of its dynamic registration"
        ) { $0.mcp.sendsApplicationType = false },
        .defect(
            "mcp-registers-without-refresh-token-grant",
            "registers dynamically with grant_types authorization_code alone, then refreshes"
        ) { $0.mcp.registersRefreshTokenGrant = false },
        .defect(
            "mcp-ignores-registration-refusal",
            "goes on to the authorization endpoint, without a client ID, when its registration is refused"
        ) { $0.mcp.registrationAnswer = .refusalIgnored },
        .defect(
            "mcp-takes-registration-without-client-id",
            "takes a registration answered without client_id and goes on to the authorization endpoint without one"
        ) { $0.mcp.registrationAnswer = .clientIDNotRequired },
        .defect(
            "mcp-ignores-registered-auth-method",
            "authenticates as it asked to be registered (a public client) when the registration's answer names another token_endpoint_auth_method"
        ) { $0.mcp.usesRegisteredAuthMethod = false },
        .defect(
            "mcp-registration-reused-at-another-authorization-server",
            "keeps using the client ID it registered at one authorization server after the MCP server moves to another"
        ) { $0.mcp.registrationsBoundToTheirServer = false },
        .defect(
            "mcp-pre-registration-used-at-another-authorization-server",
            "uses its pre-registered client ID at whatever authorization server the MCP server names"
        ) { $0.mcp.preRegistrationBoundToItsServer = false },
        .defect(
            "mcp-legacy-skips-metadata",
            "for a server without Protected Resource Metadata, goes to the default endpoints without asking for the authorization server's metadata at the server's origin"
        ) { $0.mcp.legacyDiscovery = .defaultsOnly },
        .defect(
            "mcp-legacy-no-default-endpoints",
            "for a server without Protected Resource Metadata or authorization server metadata, ends the sign-in instead of using the default endpoints"
        ) { $0.mcp.legacyDiscovery = .metadataOnly },
        .defect(
            "mcp-registers-none-whatever-offered",
            "registers as a public client (token_endpoint_auth_method none) even where the authorization server offers only secret-based methods"
        ) { $0.mcp.registrationAuthMethod = .alwaysNone },
        .defect(
            "mcp-registers-default-auth-method",
            "leaves token_endpoint_auth_method out of its registration, asking for the default client_secret_basic even where the authorization server does not offer it"
        ) { $0.mcp.registrationAuthMethod = .omitted },
        .defect(
            "mcp-basic-for-client-secret-post",
            "sends its secret by HTTP Basic although it is registered with token_endpoint_auth_method client_secret_post"
        ) { $0.mcp.sendsSecretAsRegistered = false },
    ]
}
