import MockProvider
import Yams

/// Decodes `provider:`: token lifetimes, TLS, ID tokens, and the rules that make the provider misbehave.
struct ProviderDecoder {
    static let keys = [
        "tokens", "rules", "tls", "seed", "redirect_uris", "clock_skew", "id_tokens", "client_secret", "app_server",
        "client_authentication", "pushed_authorization", "device_authorization", "dpop", "issuer_path", "mcp",
        "client_registration",
    ]
    /// RFC 7518 §3.2: an HMAC key for HS256 has at least 256 bits.
    static let shortestHS256Secret = 32
    static let tokenKeys = ["access_lifetime", "refresh_lifetime", "rotate_refresh_tokens", "revoke_all_at"]

    let reader: YAMLReader
    /// The numbers of the steps that sign in the client's own way (`sign_in: any`).
    var signInSteps: [Int] = []

    func decode(_ node: Node) -> ProviderSettings? {
        guard let provider = reader.mapping(node, "provider", allowedKeys: Self.keys) else { return nil }
        var settings = ProviderSettings()
        if let tokensNode = provider["tokens"] {
            settings.tokens = tokenPolicy(tokensNode, "provider.tokens")
        }
        // The app's own server on the other origin, for third-party sign-ins (`exchange` steps).
        if let appServerNode = provider["app_server"],
            let appServer = reader.mapping(appServerNode, "provider.app_server", allowedKeys: ["tokens"]),
            let tokensNode = appServer["tokens"]
        {
            settings.appServerTokens = tokenPolicy(tokensNode, "provider.app_server.tokens")
        }
        settings.tls = provider["tls"].flatMap {
            reader.enumeration($0, "tls certificate", as: CertificateVariant.self)
        }
        if let seed = provider["seed"].flatMap({ reader.int($0, "seed", in: 0...Int.max) }) {
            settings.seed = UInt64(seed)
        }
        if let skewNode = provider["clock_skew"],
            let skew = reader.mapping(skewNode, "provider.clock_skew", allowedKeys: ["ahead", "behind"]),
            let direction = skew.exactlyOne(of: ["ahead", "behind"]),
            let amount = skew[direction].flatMap({ reader.duration($0, "clock_skew.\(direction)") })
        {
            settings.clockSkew = direction == "ahead" ? amount : .zero - amount
        }
        if let idTokens = provider["id_tokens"].flatMap(IDTokenDecoder(reader: reader).policy) {
            settings.idTokens = idTokens
        }
        if let method = provider["client_authentication"].flatMap({
            reader.enumeration($0, "client_authentication", as: ClientAuthenticationMethod.self)
        }) {
            settings.clientAuthentication = method
        }
        if let node = provider["device_authorization"], let policy = deviceAuthorization(node) {
            settings.deviceAuthorization = policy
        }
        // `pushed_authorization: { required: true, request_uri_lifetime: 60s }` (RFC 9126).
        if let node = provider["pushed_authorization"],
            let pushed = reader.mapping(
                node,
                "provider.pushed_authorization",
                allowedKeys: ["required", "request_uri_lifetime"]
            )
        {
            var policy = PushedAuthorizationPolicy()
            if let required = pushed["required"].flatMap({ reader.bool($0, "pushed_authorization.required") }) {
                policy.required = required
            }
            if let lifetime = pushed["request_uri_lifetime"].flatMap({
                reader.duration($0, "pushed_authorization.request_uri_lifetime")
            }) {
                policy.requestURILifetime = lifetime
            }
            settings.pushedAuthorization = policy
        }
        if let node = provider["dpop"] {
            settings.dpop = dpop(node)
        }
        // `issuer_path: /tenant1`: the issuer identifier has this path after the origin.
        if let node = provider["issuer_path"], let path = RuleDecoder.path(node, reader: reader) {
            if path.count < 2 || path.hasSuffix("/") {
                reader.error("issuer_path must be a path such as /tenant1, without a trailing '/'", at: node)
            } else {
                settings.issuerPath = path
            }
        }
        // `mcp: { resource_metadata: root, challenge_scope: "files:read", scopes_supported: [files:read] }`.
        if let node = provider["mcp"],
            let mcp = reader.mapping(
                node,
                "provider.mcp",
                allowedKeys: [
                    "resource_metadata", "challenge_scope", "scopes_supported", "method_scopes", "scopes_never_enough",
                    "second_authorization_server",
                ]
            )
        {
            if let named = mcp["resource_metadata"] {
                switch reader.string(named, "mcp.resource_metadata") {
                case "path_based"?: settings.mcp.challengeNames = .protectedResourceMetadata
                case "root"?: settings.mcp.challengeNames = .protectedResourceMetadataRoot
                case "named"?: settings.mcp.challengeNames = .protectedResourceMetadataNamed
                case "omit"?: settings.mcp.challengeNames = nil
                case let other?:
                    reader.error("mcp.resource_metadata is path_based, root, named or omit, not '\(other)'", at: named)
                case nil: break
                }
            }
            settings.mcp.challengeScope = mcp["challenge_scope"].flatMap { reader.string($0, "mcp.challenge_scope") }
            settings.mcp.scopesSupported = mcp["scopes_supported"].map { reader.scalarList($0, "mcp.scopes_supported") }
            if let node = mcp["method_scopes"] { settings.mcp.methodScopes = methodScopes(node) }
            if let node = mcp["scopes_never_enough"], let never = reader.bool(node, "mcp.scopes_never_enough") {
                if never, settings.mcp.methodScopes.isEmpty {
                    reader.error(
                        "mcp.scopes_never_enough needs mcp.method_scopes: only a method that needs a scope is refused",
                        at: node
                    )
                }
                settings.mcp.scopesNeverEnough = never
            }
            if let node = mcp["second_authorization_server"] {
                settings.mcp.secondAuthorizationServer = clientRegistration(node, of: .second)
            }
        }
        if let node = provider["client_registration"], let policy = clientRegistration(node, of: .first) {
            settings.registration = policy
        }
        if let node = provider["client_secret"], let secret = reader.string(node, "client_secret") {
            settings.client.secret = secret
        }
        if settings.idTokens.algorithm == .hs256, settings.client.secret.utf8.count < Self.shortestHS256Secret {
            reader.error(
                "id_tokens.alg HS256 keys ID tokens with the client secret, which has \(settings.client.secret.utf8.count) bytes; RFC 7518 §3.2 needs at least \(Self.shortestHS256Secret): set provider.client_secret to a longer one",
                at: provider["id_tokens"] ?? node
            )
        }
        if settings.idTokens.algorithm == .hs256, settings.clientAuthentication == .publicClient {
            reader.error(
                "id_tokens.alg HS256 keys ID tokens with the client secret, and a public client (client_authentication: none) has none: register it for RS256, PS256 or ES256",
                at: provider["id_tokens"] ?? node
            )
        }
        if settings.clientAuthentication == .clientSecretJWT,
            settings.client.secret.utf8.count < Self.shortestHS256Secret
        {
            reader.error(
                "client_secret_jwt MACs assertions HS256 with the client secret, which has \(settings.client.secret.utf8.count) bytes; RFC 7518 §3.2 needs at least \(Self.shortestHS256Secret): set provider.client_secret to a longer one",
                at: provider["client_authentication"] ?? node
            )
        }
        if let uris = provider["redirect_uris"] {
            settings.redirectURIs = reader.scalarList(uris, "redirect_uris")
        }
        if let rulesNode = provider["rules"] {
            let decoder = RuleDecoder(reader: reader, signInSteps: signInSteps)
            settings.rules = (reader.sequence(rulesNode, "provider.rules") ?? []).compactMap(decoder.decode)
        }
        if settings.dpop == nil, settings.rules.contains(where: { Self.renewsDPoPNonce($0.action) }),
            let rulesNode = provider["rules"]
        {
            reader.error(
                "a rule's dpop_nonce needs provider.dpop: the provider offers no DPoP without it",
                at: rulesNode
            )
        }
        // Rules with problems were dropped and reported; the collector's errors stop the run.
        return settings
    }

    /// `client_registration: { pre_registered: false, dynamic_registration: true, client_id_metadata_document: true }`:
    /// how the client gets its client ID (MCP authorization, "Client Registration"). At the second
    /// authorization server (`mcp.second_authorization_server: { dynamic_registration: true }`) the
    /// client is never pre-registered, and may find no way at all: a pre-registered client must
    /// then surface an error.
    private func clientRegistration(_ node: Node, of server: AuthorizationServerID) -> ClientRegistrationPolicy? {
        let first = server == .first
        let keys =
            (first ? ["pre_registered"] : [])
            + [
                "dynamic_registration", "client_id_metadata_document", "substitute_auth_method",
                "token_endpoint_auth_methods",
            ]
        let name = first ? "client_registration" : "mcp.second_authorization_server"
        guard let fields = reader.mapping(node, "provider." + name, allowedKeys: keys) else { return nil }
        var policy = ClientRegistrationPolicy(preRegistered: first)
        if let value = fields["pre_registered"].flatMap({ reader.bool($0, "client_registration.pre_registered") }) {
            policy.preRegistered = value
        }
        if let value = fields["dynamic_registration"].flatMap({
            reader.bool($0, "\(name).dynamic_registration")
        }) {
            policy.dynamicRegistration = value
        }
        if let value = fields["client_id_metadata_document"].flatMap({
            reader.bool($0, "\(name).client_id_metadata_document")
        }) {
            policy.clientIDMetadataDocuments = value
        }
        // `substitute_auth_method: client_secret_basic`: registrations are made with it, whatever is asked.
        if let node = fields["substitute_auth_method"],
            let method = reader.word(
                node,
                "\(name).substitute_auth_method",
                among: ClientRegistrationPolicy.registrableAuthMethods
            )
        {
            policy.substitutedAuthMethod = method
        }
        if first, !policy.preRegistered, !policy.dynamicRegistration, !policy.clientIDMetadataDocuments {
            reader.error(
                "client_registration.pre_registered: false leaves the client no way to get a client ID: offer dynamic_registration or client_id_metadata_document",
                at: node
            )
            return nil
        }
        if let methodsNode = fields["token_endpoint_auth_methods"] {
            policy.offeredAuthMethods = offeredAuthMethods(methodsNode, in: policy, of: name)
        }
        return policy
    }

    /// `token_endpoint_auth_methods: [client_secret_post]`: the only methods the server offers, what
    /// its metadata lists and what a registration may ask for. They stand for the whole token
    /// endpoint, so every client the provider knows must be one of them: no pre-registered client
    /// (whose method is `client_authentication`'s), registration offered, and `none` among them
    /// where metadata documents (public clients) are taken.
    private func offeredAuthMethods(_ node: Node, in policy: ClientRegistrationPolicy, of name: String) -> [String]? {
        let what = "\(name).token_endpoint_auth_methods"
        guard let items = reader.sequence(node, what) else { return nil }
        let methods = items.compactMap {
            reader.word($0, "item of \(what)", among: ClientRegistrationPolicy.registrableAuthMethods)
        }
        guard methods.count == items.count else { return nil }
        let problem: String? =
            if methods.isEmpty {
                "\(what) lists the methods a registration may ask for: name at least one of \(ClientRegistrationPolicy.registrableAuthMethods.joined(separator: ", "))"
            } else if Set(methods).count != methods.count {
                "\(what) names a method twice"
            } else if !policy.dynamicRegistration {
                "\(what) says what a dynamic registration may ask for: it needs dynamic_registration: true"
            } else if policy.preRegistered {
                "\(what) stands for every client of the token endpoint, and a pre-registered client authenticates as client_authentication says: set pre_registered: false"
            } else if policy.clientIDMetadataDocuments, !methods.contains("none") {
                "\(what) leaves out none, the method of a client identified by its metadata document (client_id_metadata_document: true)"
            } else if let substituted = policy.substitutedAuthMethod, !methods.contains(substituted) {
                "\(what) leaves out \(substituted), the method every registration is made with (substitute_auth_method)"
            } else {
                nil
            }
        if let problem {
            reader.error(problem, at: node)
            return nil
        }
        return methods
    }

    private static func renewsDPoPNonce(_ action: RuleAction?) -> Bool {
        action?.contains { $0 is DPoPNonceRenewal } ?? false
    }

    /// `dpop: { nonce: [token, resource], nonce_rotates_every: 2, refresh_tokens_bound: true,
    /// answers_bearer: false }` (RFC 9449); `dpop: {}` offers DPoP with none of these.
    private func dpop(_ node: Node) -> DPoPPolicy? {
        let keys = ["nonce", "nonce_rotates_every", "refresh_tokens_bound", "answers_bearer"]
        guard let fields = reader.mapping(node, "provider.dpop", allowedKeys: keys) else { return nil }
        var policy = DPoPPolicy()
        if let nonce = fields["nonce"] {
            for item in reader.sequence(nonce, "dpop.nonce") ?? [] {
                guard let name = reader.string(item, "dpop.nonce") else { continue }
                guard let server = DPoPPolicy.NonceServer(rawValue: name) else {
                    reader.error("dpop.nonce names token or resource, not '\(name)'", at: item)
                    continue
                }
                policy.nonceRequiredAt.insert(server)
            }
        }
        if let every = fields["nonce_rotates_every"] {
            policy.nonceRotatesEvery = reader.int(every, "dpop.nonce_rotates_every", in: 1...1_000)
            if policy.nonceRequiredAt.isEmpty {
                reader.error(
                    "dpop.nonce_rotates_every rotates the nonces dpop.nonce demands; name token or resource there",
                    at: every
                )
            }
        }
        if let bound = fields["refresh_tokens_bound"].flatMap({ reader.bool($0, "dpop.refresh_tokens_bound") }) {
            policy.refreshTokensBound = bound
        }
        if let bearer = fields["answers_bearer"].flatMap({ reader.bool($0, "dpop.answers_bearer") }) {
            policy.answersBearer = bearer
        }
        return policy
    }

    /// `device_authorization: { interval: 5s | none, expires_in: 10m, verification_uri_complete: true,
    /// user: { approves_at_poll: 3 } | { approves_after: 30s } | { denies_at_poll: 2 } | never }` (RFC 8628).
    private func deviceAuthorization(_ node: Node) -> DeviceAuthorizationPolicy? {
        let keys = ["interval", "expires_in", "verification_uri_complete", "user"]
        guard let fields = reader.mapping(node, "provider.device_authorization", allowedKeys: keys) else { return nil }
        var policy = DeviceAuthorizationPolicy()
        if let interval = fields["interval"] {
            policy.interval =
                reader.string(interval, "device_authorization.interval") == "none"
                ? nil : reader.duration(interval, "device_authorization.interval")
        }
        if let expiresIn = fields["expires_in"].flatMap({ reader.duration($0, "device_authorization.expires_in") }) {
            policy.expiresIn = expiresIn
        }
        if let complete = fields["verification_uri_complete"].flatMap({
            reader.bool($0, "device_authorization.verification_uri_complete")
        }) {
            policy.verificationURIComplete = complete
        }
        if let userNode = fields["user"] {
            if case .scalar = userNode, reader.string(userNode, "device_authorization.user") == "never" {
                policy.user = .never
            } else if let user = reader.mapping(
                userNode,
                "device_authorization.user",
                allowedKeys: ["approves_at_poll", "approves_after", "denies_at_poll"]
            ), let key = user.exactlyOne(of: ["approves_at_poll", "approves_after", "denies_at_poll"]),
                let value = user[key]
            {
                switch key {
                case "approves_after":
                    guard let delay = reader.duration(value, "user.approves_after") else { return nil }
                    policy.user = .approvesAfter(delay)
                default:
                    guard let poll = reader.int(value, "user.\(key)", in: 1...10_000) else { return nil }
                    policy.user = key == "approves_at_poll" ? .approvesAtPoll(poll) : .deniesAtPoll(poll)
                }
            } else {
                return nil
            }
        }
        return policy
    }

    /// `tokens:`: lifetimes, rotation and mass revocation; what is left out keeps its default.
    private func tokenPolicy(_ node: Node, _ what: String) -> TokenPolicy {
        var policy = TokenPolicy()
        guard let tokens = reader.mapping(node, what, allowedKeys: Self.tokenKeys) else { return policy }
        if let lifetime = tokens["access_lifetime"].flatMap({ reader.duration($0, "access_lifetime") }) {
            policy.accessLifetime = lifetime
        }
        policy.refreshLifetime = tokens["refresh_lifetime"].flatMap { reader.duration($0, "refresh_lifetime") }
        if let rotate = tokens["rotate_refresh_tokens"].flatMap({ reader.bool($0, "rotate_refresh_tokens") }) {
            policy.rotateRefreshTokens = rotate
        }
        if let instants = tokens["revoke_all_at"] {
            let items: [Node] = if case .sequence(let list) = instants { Array(list) } else { [instants] }
            policy.revokeAllAt = items.compactMap { reader.duration($0, "revoke_all_at") }
        }
        return policy
    }

    /// `method_scopes: { "tools/call": "files:write" }`: each MCP method's scope, RFC 6749 §3.3
    /// scope tokens separated by spaces (they go into the 403's quoted `scope`, RFC 6750 §3).
    private func methodScopes(_ node: Node) -> [String: String] {
        guard case .mapping(let mapping) = node else {
            reader.error(
                "mcp.method_scopes must be a mapping from an MCP method to its scope, such as { \"tools/call\": \"files:write\" }",
                at: node
            )
            return [:]
        }
        var scopes: [String: String] = [:]
        for (key, value) in mapping {
            guard let method = reader.string(key, "an MCP method in mcp.method_scopes"),
                let scope = reader.string(value, "the scope of \(method) in mcp.method_scopes")
            else { continue }
            let tokens = scope.split(separator: " ", omittingEmptySubsequences: false)
            guard !scope.isEmpty, tokens.allSatisfy(Self.isScopeToken) else {
                reader.error(
                    "the scope of \(method) must be scope tokens separated by single spaces (RFC 6749 §3.3), not '\(scope)'",
                    at: value
                )
                continue
            }
            scopes[method] = scope
        }
        return scopes
    }

    /// RFC 6749 §3.3: `scope-token = 1*( %x21 / %x23-5B / %x5D-7E )`.
    private static func isScopeToken(_ token: Substring) -> Bool {
        !token.isEmpty
            && token.unicodeScalars.allSatisfy {
                $0.value == 0x21 || (0x23...0x5B).contains($0.value) || (0x5D...0x7E).contains($0.value)
            }
    }
}
