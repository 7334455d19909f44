/// RFC 8414 authorization server metadata and the OpenID Connect Discovery 1.0 §3 configuration,
/// so discovery-driven clients find every endpoint. The OpenID document is the RFC 8414 one with
/// the members OpenID Connect adds (RFC 8414 §2 shares its names with Discovery).
enum MetadataEndpoint {
    enum Document {
        /// RFC 8414 authorization server metadata.
        case oauth
        /// OpenID Connect Discovery 1.0's OpenID Provider configuration.
        case openID
    }

    /// The endpoints a document names: where they are, and which.
    struct Endpoints {
        /// The URL every endpoint's path is appended to: the origin, whatever the issuer's path,
        /// for the first authorization server; `<origin>/as2` for the second.
        var base: String
        /// Only the authorization code flow's (authorization, token, registration): the second
        /// authorization server serves nothing else.
        var authorizationCodeOnly = false
    }

    /// The document at `path` if it is one of the URLs a client builds from the issuer (with
    /// `settings.issuerPath`, RFC 8414 §3.1 inserts the well-known part before the path, OpenID
    /// Connect Discovery §4 appends it, and RFC 8414 §5 lets OpenID's be inserted too), else a 404.
    static func serve(
        _ document: Document,
        at path: String,
        issuer: String,
        endpoints: Endpoints,
        settings: ProviderSettings
    ) -> ProviderResponse {
        let issuerPath = settings.issuerPath ?? ""
        let paths: [String] =
            switch document {
            case .oauth: [Endpoint.metadata.path + issuerPath]
            case .openID:
                [Endpoint.openIDConfiguration.path + issuerPath, issuerPath + Endpoint.openIDConfiguration.path]
            }
        guard paths.contains(path) else { return .notFound }
        switch document {
        case .oauth: return .json(200, .object(oauthMembers(issuer: issuer, endpoints: endpoints, settings: settings)))
        case .openID: return openIDConfiguration(issuer: issuer, endpoints: endpoints, settings: settings)
        }
    }

    private static func openIDConfiguration(
        issuer: String,
        endpoints: Endpoints,
        settings: ProviderSettings
    ) -> ProviderResponse {
        let idTokens = settings.idTokens
        var members = oauthMembers(issuer: issuer, endpoints: endpoints, settings: settings)
        members["userinfo_endpoint"] = .string(endpoints.base + Endpoint.userinfo.path)
        members["id_token_signing_alg_values_supported"] = .array(
            idTokenSigningAlgorithms(idTokens.algorithm).map(JSONValue.string)
        )
        members["subject_types_supported"] = .array([.string("public")])
        members["claims_supported"] = .array(
            ["iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "azp", "name", "email"].map(
                JSONValue.string
            )
        )
        return .json(200, .object(members))
    }

    private static func oauthMembers(
        issuer: String,
        endpoints: Endpoints,
        settings: ProviderSettings
    ) -> [String: JSONValue] {
        func url(_ endpoint: Endpoint) -> JSONValue { .string(endpoints.base + endpoint.path) }
        var members: [String: JSONValue] = [
            "issuer": .string(issuer),
            "authorization_endpoint": url(.authorize),
            "token_endpoint": url(.token),
            "response_types_supported": .array([.string("code")]),
            "scopes_supported": .array(["openid", "profile", "email"].map(JSONValue.string)),
            "grant_types_supported": .array(
                (endpoints.authorizationCodeOnly ? [.authorizationCode, .refreshToken] : GrantType.providerGrants).map {
                    .string($0.rawValue)
                }
            ),
            "code_challenge_methods_supported": .array(CodeChallengeMethod.allCases.map { .string($0.rawValue) }),
            "token_endpoint_auth_methods_supported": .array(tokenEndpointAuthMethods(settings).map(JSONValue.string)),
            "authorization_response_iss_parameter_supported": .bool(true),
        ]
        if !endpoints.authorizationCodeOnly {
            members["revocation_endpoint"] = url(.revoke)
            members["introspection_endpoint"] = url(.introspect)
            members["jwks_uri"] = url(.jwks)
            members["pushed_authorization_request_endpoint"] = url(.pushedAuthorization)
            members["device_authorization_endpoint"] = url(.deviceAuthorization)
            members["require_pushed_authorization_requests"] = .bool(settings.pushedAuthorization?.required ?? false)
        }
        if let algorithm = assertionAlgorithm(settings.clientAuthentication) {
            // RFC 8414 §2: present whenever private_key_jwt or client_secret_jwt is listed.
            members["token_endpoint_auth_signing_alg_values_supported"] = .array([.string(algorithm)])
        }
        if settings.registration.dynamicRegistration {
            members["registration_endpoint"] = url(.register)
        }
        if settings.registration.clientIDMetadataDocuments {
            // MCP authorization 2026-07-28, "Advertising Client ID Metadata Document Support".
            members["client_id_metadata_document_supported"] = .bool(true)
        }
        if settings.dpop != nil {
            // RFC 9449 §5.1.
            members["dpop_signing_alg_values_supported"] = .array(DPoPPolicy.signingAlgorithms.map(JSONValue.string))
        }
        return members
    }

    /// Discovery §3: "The algorithm RS256 MUST be included", whichever algorithm the client is
    /// registered for; that one comes first, as the algorithm this provider's ID tokens use.
    static func idTokenSigningAlgorithms(_ registered: IDTokenAlgorithm) -> [String] {
        registered == .rs256
            ? [IDTokenAlgorithm.rs256.rawValue] : [registered.rawValue, IDTokenAlgorithm.rs256.rawValue]
    }

    /// RFC 8414 §2 `token_endpoint_auth_methods_supported`: every way a client this provider knows
    /// may authenticate at the token endpoint. Those the scenario offers, where it offers only
    /// some (`client_registration.token_endpoint_auth_methods`); else the pre-registered client's,
    /// and the methods a client that registers or names its metadata document is let in with.
    static func tokenEndpointAuthMethods(_ settings: ProviderSettings) -> [String] {
        let registration = settings.registration
        if let offered = registration.offeredAuthMethods { return offered }
        var methods = registration.preRegistered ? tokenEndpointAuthMethods(settings.clientAuthentication) : []
        if registration.dynamicRegistration { methods += ClientRegistrationPolicy.registrableAuthMethods }
        if registration.clientIDMetadataDocuments { methods.append(ClientAuthenticationMethod.publicClient.rawValue) }
        var listed = Set<String>()
        return methods.filter { listed.insert($0).inserted }
    }

    /// The RFC 7591 names of what the client's registration accepts at the token endpoint.
    static func tokenEndpointAuthMethods(_ method: ClientAuthenticationMethod) -> [String] {
        switch method {
        case .clientSecret: ["client_secret_basic", "client_secret_post"]
        case .privateKeyJWT, .clientSecretJWT, .publicClient: [method.rawValue]
        }
    }

    /// What the client's assertions must be signed or MACed with, for the assertion methods.
    private static func assertionAlgorithm(_ method: ClientAuthenticationMethod) -> String? {
        switch method {
        case .privateKeyJWT: "ES256"
        case .clientSecretJWT: "HS256"
        case .clientSecret, .publicClient: nil
        }
    }
}
