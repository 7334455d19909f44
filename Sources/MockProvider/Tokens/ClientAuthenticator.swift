import Foundation

/// RFC 6749 §2.3.1 client authentication, for every endpoint that requires it: HTTP Basic (each
/// part form-encoded) or client_id/client_secret in the body, never both; or, for a client
/// registered with `private_key_jwt` or `client_secret_jwt`, a signed assertion (`ClientAssertionVerifier`);
/// or, for a public client, its `client_id` alone (`PublicClientIdentification`). A client registered
/// during the scenario (`ClientRegistrations`) is authenticated as it registered: by its secret, sent
/// the way its `token_endpoint_auth_method` says (HTTP Basic or the form), or as a public client.
struct ClientAuthenticator: Sendable {
    static let basicChallenge = HeaderField("WWW-Authenticate", "Basic realm=\"mock-provider\"")

    let client: ClientCredentials
    /// The clients registered during the scenario, and whether `client` is registered at all.
    let registrations: ClientRegistrations?
    /// Set for a client registered with `private_key_jwt` or `client_secret_jwt`: the secret then
    /// authenticates nothing by itself.
    let assertions: ClientAssertionVerifier?
    /// Set for a public client (`none`): it has no credentials, and presenting any is refused.
    let publicClient: PublicClientIdentification?
    /// The Basic credentials a conforming client sends, when form-encoding leaves the id and
    /// secret as they are: a request carrying exactly these is authenticated without decoding
    /// them, which would otherwise cost a good part of a token request.
    private let canonicalBasic: String?

    init(
        client: ClientCredentials,
        registrations: ClientRegistrations? = nil,
        assertions: ClientAssertionVerifier? = nil,
        publicClient: PublicClientIdentification? = nil
    ) {
        self.client = client
        self.registrations = registrations
        self.assertions = assertions
        self.publicClient = publicClient
        let needsNoEncoding =
            client.id.utf8.allSatisfy(ASCII.isUnreserved) && client.secret.utf8.allSatisfy(ASCII.isUnreserved)
        self.canonicalBasic = needsNoEncoding ? Data("\(client.id):\(client.secret)".utf8).base64EncodedString() : nil
    }

    /// What an endpoint for authenticated clients (token, revocation, introspection) answers
    /// instead of serving the request: a method other than POST, or failed client
    /// authentication. `nil` when the request may proceed.
    func refusal(for request: ProviderRequest) -> ProviderResponse? {
        Self.rejectNonPost(request) ?? reject(request)
    }

    /// The error response, or `nil` when the client is authenticated.
    private func reject(_ request: ProviderRequest) -> ProviderResponse? {
        if let registrations {
            let presentedID = request.formField("client_id") ?? request.basicCredentials?.id
            if let presentedID, let registered = registrations.client(id: presentedID) {
                if let otherWay = Self.refusalOfAnotherMethod(than: registered, in: request) { return otherWay }
                return ClientAuthenticator(
                    client: ClientCredentials(id: registered.id, secret: registered.secret ?? ""),
                    publicClient: registered.secret == nil ? PublicClientIdentification(clientID: registered.id) : nil
                ).reject(request)
            }
            guard registrations.policy.preRegistered else {
                return .oauthError(
                    ScriptedOAuthError(
                        code: "invalid_client",
                        description:
                            "unknown client \(presentedID ?? "(no client_id)"): this provider holds no registration made before the scenario; the client registers or names its metadata document"
                    )
                )
            }
        }
        if let publicClient {
            return publicClient.refusal(of: request).map {
                .oauthError(
                    ScriptedOAuthError(code: "invalid_client", description: $0),
                    extraHeaders: request.header("Authorization") != nil ? [Self.basicChallenge] : []
                )
            }
        }
        if let assertions {
            return assertions.refusal(of: request).map {
                .oauthError(ScriptedOAuthError(code: "invalid_client", description: $0))
            }
        }
        let basic = request.header("Authorization").flatMap(basicCredentials)
        let bodyID = request.formField("client_id")
        let bodySecret = request.formField("client_secret")
        if basic != nil, bodySecret != nil {
            return .oauthError(
                ScriptedOAuthError(code: "invalid_request", description: "more than one client authentication method")
            )
        }
        let presented = basic ?? bodyID.map { ClientCredentials(id: $0, secret: bodySecret ?? "") }
        guard presented == client else {
            let usedBasic = request.header("Authorization") != nil
            return .oauthError(
                ScriptedOAuthError(code: "invalid_client", description: "client authentication failed"),
                extraHeaders: usedBasic ? [Self.basicChallenge] : []
            )
        }
        return nil
    }

    /// RFC 7591 §2: a registered client's `token_endpoint_auth_method` is how it authenticates at
    /// the token endpoint, and this provider holds it to that, as a server that supports only the
    /// methods it lists (RFC 8414 §2) does: a secret registered for `client_secret_basic` sent in
    /// the form, or one registered for `client_secret_post` sent by HTTP Basic, is refused
    /// `invalid_client` (RFC 6749 §5.2), even when the secret is right. A public client presenting
    /// any credentials is refused by `PublicClientIdentification`.
    private static func refusalOfAnotherMethod(
        than registered: RegisteredClient,
        in request: ProviderRequest
    ) -> ProviderResponse? {
        let usedBasic = request.basicCredentials != nil
        let usedForm = request.formField("client_secret") != nil
        let used: String
        switch registered.authMethod {
        case "client_secret_basic" where usedForm && !usedBasic: used = "client_secret_post"
        case "client_secret_post" where usedBasic && !usedForm: used = "client_secret_basic"
        default: return nil
        }
        return .oauthError(
            ScriptedOAuthError(
                code: "invalid_client",
                description:
                    "client \(registered.id) is registered with token_endpoint_auth_method \(registered.authMethod) and authenticated by \(used) (RFC 7591 §2)"
            ),
            extraHeaders: usedBasic ? [basicChallenge] : []
        )
    }

    private func basicCredentials(_ authorization: String) -> ClientCredentials? {
        guard let presented = ProviderRequest.credentialBytes(ofScheme: "basic", in: authorization) else { return nil }
        return presented == canonicalBasic?[...]
            ? client : ClientCredentials(basic: ProviderRequest.trimmingWhitespace(presented))
    }

    /// POST only, as RFC 6749 §3.2, RFC 7009 §2.1 and RFC 7662 §2.1 require.
    private static func rejectNonPost(_ request: ProviderRequest) -> ProviderResponse? {
        guard request.method != "POST" else { return nil }
        return .oauthError(
            ScriptedOAuthError(code: "invalid_request", description: "this endpoint accepts POST only", status: 405),
            extraHeaders: [HeaderField("Allow", "POST")]
        )
    }
}
