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
    public struct Configuration: Sendable {
        public enum ClientAuthentication: Sendable { case basic, requestBody }

        public var tokenEndpointURL: String
        public var client: ClientCredentials
        public var user: UserCredentials
        public var authentication: ClientAuthentication
        public var authorizationEndpointURL: String?
        public var redirectURI: String?
        /// The issuer the authorization response's `iss` must name (RFC 9207).
        public var issuer: String?
        /// Where OpenID Connect sign-in discovers the provider; `nil`: no sign-in.
        public var openIDConfigurationURL: String?
        /// The ID token signing algorithm the client registered (`id_token_signed_response_alg`).
        public var idTokenSigningAlgorithm: String
        /// The only CA trusted for HTTPS; `nil` trusts the system's roots.
        public var caCertificateFile: String?
        /// The public key every HTTPS origin must present (base64 SHA-256 of its SPKI), when pinned.
        public var pinnedPublicKeySHA256: String?
        /// The app's own server, where a third-party sign-in is exchanged for the app's tokens.
        public var appServerTokenEndpointURL: String?
        /// RFC 8628 §3.1: the device authorization endpoint.
        public var deviceAuthorizationEndpointURL: String?
        /// RFC 9126: where the client pushes its authorization requests; `nil`: it sends them
        /// in the front channel.
        public var pushedAuthorizationEndpointURL: String?
        /// The private JWK the client is registered with for `private_key_jwt`; with it, the
        /// client authenticates by signed assertions instead of its secret.
        public var clientAssertionKey: String?
        /// `client_secret_jwt`: assertions MACed with the client secret instead of the secret itself.
        public var signsAssertionsWithSecret = false
        /// RFC 9449: the algorithms the provider takes DPoP proofs in; `nil`: no DPoP.
        public var dpopSigningAlgorithms: [String]?
        /// Where tokens are persisted across `restart`; `nil` keeps them in memory only.
        public var tokenFile: URL?
        /// Where the accepted ID token is persisted across `restart`, beside the tokens.
        public var signInFile: URL? { tokenFile?.deletingLastPathComponent().appendingPathComponent("id_token.jwt") }
        /// Real time a request may take before it fails as transient.
        public var requestTimeout: TimeAmount

        public init(
            signsAssertionsWithSecret: Bool = false,
            tokenEndpointURL: String,
            client: ClientCredentials,
            user: UserCredentials,
            authentication: ClientAuthentication = .basic,
            authorizationEndpointURL: String? = nil,
            redirectURI: String? = nil,
            issuer: String? = nil,
            openIDConfigurationURL: String? = nil,
            idTokenSigningAlgorithm: String = "RS256",
            caCertificateFile: String? = nil,
            pinnedPublicKeySHA256: String? = nil,
            tokenFile: URL? = nil,
            appServerTokenEndpointURL: String? = nil,
            clientAssertionKey: String? = nil,
            pushedAuthorizationEndpointURL: String? = nil,
            deviceAuthorizationEndpointURL: String? = nil,
            dpopSigningAlgorithms: [String]? = nil,
            requestTimeout: TimeAmount = .seconds(30)
        ) {
            self.dpopSigningAlgorithms = dpopSigningAlgorithms
            self.signsAssertionsWithSecret = signsAssertionsWithSecret
            self.tokenEndpointURL = tokenEndpointURL
            self.client = client
            self.user = user
            self.authentication = authentication
            self.authorizationEndpointURL = authorizationEndpointURL
            self.redirectURI = redirectURI
            self.issuer = issuer
            self.openIDConfigurationURL = openIDConfigurationURL
            self.idTokenSigningAlgorithm = idTokenSigningAlgorithm
            self.caCertificateFile = caCertificateFile
            self.pinnedPublicKeySHA256 = pinnedPublicKeySHA256
            self.tokenFile = tokenFile
            self.appServerTokenEndpointURL = appServerTokenEndpointURL
            self.clientAssertionKey = clientAssertionKey
            self.pushedAuthorizationEndpointURL = pushedAuthorizationEndpointURL
            self.deviceAuthorizationEndpointURL = deviceAuthorizationEndpointURL
            self.requestTimeout = requestTimeout
        }

        /// Everything the scenario's environment offers.
        public init(_ environment: ClientEnvironment, requestTimeout: TimeAmount = .seconds(30)) {
            self.init(
                signsAssertionsWithSecret: environment.clientAuthentication == .clientSecretJWT,
                tokenEndpointURL: environment.tokenEndpointURL,
                client: environment.client,
                user: environment.user,
                authorizationEndpointURL: environment.authorizationEndpointURL,
                redirectURI: environment.redirectURI,
                issuer: environment.issuer,
                openIDConfigurationURL: environment.openIDConfigurationURL,
                idTokenSigningAlgorithm: environment.idTokenSigningAlgorithm,
                caCertificateFile: environment.caCertificateFile,
                pinnedPublicKeySHA256: environment.pinnedPublicKeySHA256,
                tokenFile: environment.storageDirectory.appendingPathComponent("tokens.json"),
                appServerTokenEndpointURL: environment.appServerTokenEndpointURL,
                clientAssertionKey: environment.clientAssertionKey,
                pushedAuthorizationEndpointURL: environment.pushedAuthorizationEndpointURL,
                deviceAuthorizationEndpointURL: environment.deviceAuthorizationEndpointURL,
                dpopSigningAlgorithms: environment.dpopSigningAlgorithms,
                requestTimeout: requestTimeout
            )
        }
    }

    static let maximumBodySize = 1 << 20

    private let configuration: Configuration
    private let behaviour: ClientBehaviour
    private let now: @Sendable () -> Date
    private let interpreter: TokenResponseInterpreter
    private let http: HTTPClient
    private var tokens: TokenSet?
    private var loginGrant: GrantType?
    private var refreshInFlight: Task<Result<TokenSet, ClientFailure>, Never>?
    private var pendingAuthorization: AuthorizationRequest?
    private let store: TokenStore?
    private let signInStore: SignInStore?
    /// Set by a `Retry-After` from the token endpoint: no token request before this instant.
    private var tokenEndpointQuietUntil: Date?
    private let pin: PublicKeyPin?
    /// HTTPS origins (`host:port`) whose certificate carried the pinned key.
    private var pinnedOriginsVerified: Set<String> = []
    /// Made at the first sign-in; it vets every ID token before the tokens it came with are kept.
    private var relyingParty: OpenIDRelyingParty?
    /// Made at the first `private_key_jwt` token request.
    private var assertionSigner: ClientAssertionSigner?
    /// The assertion sent last; only the defect that reuses assertions sends it again.
    private var lastAssertion: String?
    /// The authorization URL of the last push; only the defect that reuses `request_uri`s opens it again.
    private var pushedURL: String?
    /// The device authorization under way, between `startDeviceAuthorization` and its end.
    private var deviceAuthorization: DeviceAuthorizationSession?
    /// Made at the first exchange of a sign-in; its tokens are for the app server alone.
    private var appServerSession: AppServerSession?
    /// Made when the provider offers DPoP with ES256 (RFC 9449 §5.1), the reference client's algorithm.
    private lazy var dpop: DPoPSession? =
        configuration.dpopSigningAlgorithms?.contains("ES256") == true ? DPoPSession(behaviour: behaviour.dpop) : nil

    public init(
        configuration: Configuration,
        behaviour: ClientBehaviour = .conforming,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.behaviour = behaviour
        self.now = now
        self.interpreter = TokenResponseInterpreter(behaviour: behaviour)
        self.store = configuration.tokenFile.map(TokenStore.init)
        self.signInStore = configuration.signInFile.map(SignInStore.init)
        // Verification switched off is switched off whole, pin included, as a disabled trust evaluator is.
        let pins = behaviour.checksPinnedKey && behaviour.verifiesCertificates
        self.pin = pins ? configuration.pinnedPublicKeySHA256.map { PublicKeyPin(pinnedSHA256: $0) } : nil
        self.tokens = store?.load()
        var httpConfiguration = HTTPClient.Configuration()
        // Redirects are followed by hand, when a defect asks for it; following one carries
        // credentials to wherever it points.
        httpConfiguration.redirectConfiguration = .disallow
        httpConfiguration.timeout = .init(connect: .seconds(5), read: configuration.requestTimeout)
        // A refused TLS handshake or connection is reported at once, not retried until the
        // connect timeout: the application decides about retries, not the transport.
        httpConfiguration.connectionPool.retryConnectionEstablishment = false
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = configuration.caCertificateFile { tls.trustRoots = .file(caFile) }
        if !behaviour.verifiesCertificates { tls.certificateVerification = .none }
        httpConfiguration.tlsConfiguration = tls
        self.http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
    }

    public func shutdown() async {
        try? await http.shutdown()
    }

    public func login(_ grant: GrantType) async -> ClientOutcome {
        guard grant != .refreshToken else { return Self.outcome(of: await refresh()) }
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
    private func obtainTokens(
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
                signInStore?.save(await relyingParty.signedInIDToken)
            }
        }
        if case .success(let obtained) = result {
            replaceTokens(with: obtained, persisting: true)
            loginGrant = grant
        }
        return Self.outcome(of: result)
    }

    /// The form of a grant the client can start by itself.
    private func grantForm(_ grant: GrantType) -> [(String, String)]? {
        switch grant {
        case .password:
            [
                ("grant_type", grant.rawValue), ("username", configuration.user.username),
                ("password", configuration.user.password),
            ]
        case .clientCredentials: [("grant_type", grant.rawValue)]
        case .refreshToken, .authorizationCode, .deviceCode, .tokenExchange, .jwtBearer: nil
        }
    }

    // MARK: Authorization code flow

    public func authorizationURL() async -> Result<String, ClientFailure> {
        await startAuthorization(nonce: nil)
    }

    private func startAuthorization(nonce: String?) async -> Result<String, ClientFailure> {
        guard let endpoint = configuration.authorizationEndpointURL, let redirectURI = configuration.redirectURI else {
            return .failure(
                ClientFailure(.unsupported, message: "no authorization endpoint or redirect URI configured")
            )
        }
        let request = AuthorizationRequest(
            state: behaviour.unguessableState ? AuthorizationRequest.random() : "state",
            codeVerifier: AuthorizationRequest.random(),
            redirectURI: redirectURI,
            nonce: nonce
        )
        pendingAuthorization = request
        let clientID = configuration.client.id
        guard let pusher = authorizationPusher() else {
            return .success(request.url(endpoint: endpoint, clientID: clientID, pkce: behaviour.pkce))
        }
        if !behaviour.pushesEveryAuthorization, let pushedURL { return .success(pushedURL) }
        let pushed = await pusher.push(
            request.parameters(clientID: clientID, pkce: behaviour.pkce),
            clientID: clientID,
            authorizationEndpoint: endpoint
        )
        if case .failure = pushed, behaviour.fallsBackToFrontChannel {
            // The defect's application sends the request the old way when the push fails.
            return .success(request.url(endpoint: endpoint, clientID: clientID, pkce: behaviour.pkce))
        }
        pushedURL = try? pushed.get()
        return pushed
    }

    /// RFC 9126: made when the environment names a pushed authorization request endpoint.
    private func authorizationPusher() -> AuthorizationPusher? {
        guard behaviour.pushesAuthorizationRequests, let endpoint = configuration.pushedAuthorizationEndpointURL else {
            return nil
        }
        return AuthorizationPusher(endpointURL: endpoint) { [weak self] url, form in
            guard let self else { return .failure(ClientFailure(.unexpected, message: "the client is gone")) }
            return await self.pushAuthorization(url, form)
        }
    }

    private func pushAuthorization(
        _ url: String,
        _ fields: [(String, String)]
    ) async -> Result<(Int, String), ClientFailure> {
        let request: HTTPClientRequest
        switch await authenticatedPost(to: url, fields) {
        case .success(let built): request = built.0
        case .failure(let failure): return .failure(failure)
        }
        do {
            let answer = try await exchange(request)
            return .success((answer.status, answer.body))
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    public func completeAuthorization(redirectURL: String) async -> ClientOutcome {
        // One redirect per request: a replayed redirect finds nothing pending.
        guard let request = pendingAuthorization else {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message: "an authorization response arrived, but no authorization request is pending"
                )
            )
        }
        pendingAuthorization = nil
        switch request.read(redirect: redirectURL, expectedIssuer: configuration.issuer ?? "", behaviour: behaviour) {
        case .failure(let failure):
            return .failure(failure)
        case .success(.error(let code, let description)):
            let category: ErrorCategory = code == "access_denied" ? .authorizationRequired : .oauthError
            return .failure(
                ClientFailure(
                    category,
                    oauthError: code,
                    message: "the authorization request was refused: \(code)\(description.map { " (\($0))" } ?? "")"
                )
            )
        case .success(.code(let code)):
            var form = [
                ("grant_type", GrantType.authorizationCode.rawValue), ("code", code),
                ("redirect_uri", request.redirectURI),
            ]
            if behaviour.pkce != .none { form.append(("code_verifier", request.codeVerifier)) }
            return await obtainTokens(form, grant: .authorizationCode, signInNonce: request.nonce)
        }
    }

    // MARK: OpenID Connect

    public func signInURL() async -> Result<String, ClientFailure> {
        guard let relyingParty = openIDRelyingParty() else {
            return .failure(ClientFailure(.unsupported, message: "no OpenID Connect discovery URL configured"))
        }
        switch await relyingParty.prepareSignIn() {
        case .success(let nonce): return await startAuthorization(nonce: nonce)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// A sign-in's redirect is read like any authorization response; the redemption then validates
    /// the ID token against the nonce of the pending request.
    public func completeSignIn(redirectURL: String) async -> ClientOutcome {
        guard pendingAuthorization?.nonce != nil else {
            return .failure(
                ClientFailure(.protocolViolation, message: "a sign-in response arrived, but no sign-in is pending")
            )
        }
        return await completeAuthorization(redirectURL: redirectURL)
    }

    /// The userinfo endpoint is a protected resource: the token is attached, refreshed and replayed
    /// as for any call; only an answer about the signed-in user is accepted.
    public func userinfo() async -> ClientOutcome {
        guard behaviour.offersUserinfo else {
            return .failure(
                ClientFailure(.unsupported, message: "this client leaves the userinfo call to the application")
            )
        }
        guard let relyingParty else {
            return .failure(ClientFailure(.authorizationRequired, message: "nobody is signed in: sign in first"))
        }
        let endpoint: String
        switch await relyingParty.userinfoEndpoint() {
        case .success(let found): endpoint = found
        case .failure(let failure): return .failure(failure)
        }
        let answer = await request(method: "GET", url: endpoint)
        guard case .success(let status, let body) = answer, status == 200 else {
            if case .success(let status, _) = answer {
                return .failure(
                    ClientFailure(.userinfo, message: "the userinfo endpoint answered \(status), not the user's claims")
                )
            }
            return answer
        }
        switch await relyingParty.userinfoClaims(from: body) {
        case .success(let claims): return .success(status: 200, body: claims)
        case .failure(let failure): return .failure(failure)
        }
    }

    public func identity() async -> SignedInIdentity? {
        await relyingParty?.identity
    }

    // MARK: Device authorization grant (RFC 8628)

    public func startDeviceAuthorization() async -> Result<DevicePrompt, ClientFailure> {
        guard let endpoint = configuration.deviceAuthorizationEndpointURL else {
            return .failure(ClientFailure(.unsupported, message: "no device authorization endpoint configured"))
        }
        deviceAuthorization = nil
        let request: HTTPClientRequest
        switch await authenticatedPost(to: endpoint, []) {
        case .success(let built): request = built.0
        case .failure(let failure): return .failure(failure)
        }
        do {
            let answer = try await exchange(request)
            guard answer.status == 200 else {
                let error = JSONValue.parse(answer.body)?["error"]?.stringValue
                return .failure(
                    EndpointRefusal.failure(status: answer.status, error: error, endpoint: "device authorization")
                )
            }
            guard
                let session = DeviceAuthorizationSession(
                    response: answer.body,
                    receivedAt: now(),
                    behaviour: behaviour
                )
            else {
                return .failure(
                    ClientFailure(
                        .protocolViolation,
                        message: "the device authorization response lacks what RFC 8628 §3.2 requires"
                    )
                )
            }
            deviceAuthorization = session
            return .success(session.prompt)
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    public func pollDeviceAuthorization() async -> DevicePoll {
        guard var session = deviceAuthorization else {
            return .finished(
                .failure(ClientFailure(.protocolViolation, message: "no device authorization is under way"))
            )
        }
        if session.isExpired(at: now()), behaviour.stopsPollingOnDenialOrExpiry {
            deviceAuthorization = nil
            return .finished(
                .failure(
                    ClientFailure(
                        .authorizationRequired,
                        oauthError: "expired_token",
                        message: "the device code expired before the user acted"
                    )
                )
            )
        }
        let answer = await requestTokens(
            [("grant_type", GrantType.deviceCode.rawValue), ("device_code", session.deviceCode)],
            previous: nil
        )
        let next = session.next(after: answer)
        deviceAuthorization = session
        switch next {
        case .wait(let wait):
            return .waiting(wait)
        case .finished(.success(let tokens)):
            deviceAuthorization = nil
            replaceTokens(with: tokens, persisting: true)
            loginGrant = .deviceCode
            return .finished(.success(status: 200, body: ""))
        case .finished(.failure(let failure)):
            deviceAuthorization = nil
            return .finished(.failure(failure))
        }
    }

    // MARK: Third-party sign-in, leg 2

    public func exchangeSignIn() async -> ClientOutcome {
        guard let endpoint = configuration.appServerTokenEndpointURL else {
            return .failure(ClientFailure(.unsupported, message: "no app server configured"))
        }
        let session = appServerSession ?? makeAppServerSession(tokenEndpointURL: endpoint)
        appServerSession = session
        let subject: AppServerSession.SubjectToken
        switch await subjectTokenForExchange() {
        case .success(let ready): subject = ready
        case .failure(let failure): return .failure(failure)
        }
        switch await session.exchange(subject) {
        case .success:
            return .success(status: 200, body: "")
        case .failure(let refusal) where !behaviour.tokenExchange.reportsLeg2Refusals:
            // The defect's application reads every failure of the flow as a lost sign-in.
            await relyingParty?.signOut()
            return .failure(ClientFailure(.authorizationRequired, message: "sign-in failed: \(refusal.message)"))
        case .failure(let refusal):
            return .failure(refusal)
        }
    }

    /// Leg 1's product for leg 2: the accepted ID token, renewed at the provider when it has
    /// expired (TL-04: never an expired one); with nobody signed in, nothing, and no request.
    private func subjectTokenForExchange() async -> Result<AppServerSession.SubjectToken, ClientFailure> {
        let exchange = behaviour.tokenExchange
        if !exchange.sendsIDTokenAsSubject, let accessToken = tokens?.accessToken {
            return .success(.init(value: accessToken, type: TokenTypeURI.accessToken))
        }
        let notSignedIn = ClientFailure(
            .authorizationRequired,
            message: "nobody is signed in with the provider (leg 1): nothing to exchange"
        )
        guard let relyingParty else { return .failure(notSignedIn) }
        if !exchange.exchangesAcceptedIDTokenOnly, let received = await relyingParty.lastReceivedIDToken {
            return .success(.init(value: received, type: TokenTypeURI.idToken))
        }
        guard let current = await relyingParty.signedInIDToken, let accepted = await relyingParty.signedIn else {
            return .failure(notSignedIn)
        }
        guard exchange.renewsExpiredIDToken, let expiry = accepted.expiresAt, now() >= expiry else {
            return .success(.init(value: current, type: TokenTypeURI.idToken))
        }
        // OIDC Core §12.2: the provider's refresh brings a new ID token for the same sign-in.
        if case .failure(let failure) = await refresh() { return .failure(failure) }
        guard let renewed = await relyingParty.signedInIDToken, renewed != current else {
            return .failure(
                ClientFailure(
                    .authorizationRequired,
                    message: "the ID token expired and the provider's refresh brought no new one: sign in again"
                )
            )
        }
        return .success(.init(value: renewed, type: TokenTypeURI.idToken))
    }

    private func makeAppServerSession(tokenEndpointURL: String) -> AppServerSession {
        AppServerSession(
            tokenEndpointURL: tokenEndpointURL,
            clientID: configuration.client.id,
            behaviour: behaviour.tokenExchange,
            interpreter: interpreter,
            refreshLeeway: behaviour.refreshLeeway,
            now: now,
            // Weak: the session lives inside this client and must not keep it alive.
            postForm: { [weak self] url, form in
                guard let self else { return .failure(ClientFailure(.unexpected, message: "the client is gone")) }
                return await self.appServerCall(url: url, method: "POST", form: form, bearer: nil)
            },
            sendBearer: { [weak self] method, url, token in
                guard let self else { return .failure(ClientFailure(.unexpected, message: "the client is gone")) }
                return await self.appServerCall(url: url, method: method, form: nil, bearer: token)
            },
            freshSubjectToken: { [weak self] in
                guard let self else { return .failure(ClientFailure(.unexpected, message: "the client is gone")) }
                return await self.subjectTokenForExchange()
            }
        )
    }

    /// One call to the app server through the client's own transport.
    private func appServerCall(
        url: String,
        method: String,
        form: [(String, String)]?,
        bearer: String?
    ) async -> Result<AppServerSession.Answer, ClientFailure> {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Accept", value: "application/json")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        }
        do {
            let answer = try await exchange(request)
            return .success(
                .init(
                    status: answer.status,
                    body: answer.body,
                    serverDate: answer.headers["Date"].first.flatMap(Self.httpDate),
                    invalidTokenChallenge: answer.status == 401 && Self.isInvalidTokenChallenge(answer.headers)
                )
            )
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    private func openIDRelyingParty() -> OpenIDRelyingParty? {
        if let relyingParty { return relyingParty }
        guard let configurationURL = configuration.openIDConfigurationURL else { return nil }
        let made = OpenIDRelyingParty(
            registration: .init(
                issuer: configuration.issuer ?? "",
                configurationURL: configurationURL,
                clientID: configuration.client.id,
                clientSecret: configuration.client.secret,
                signingAlgorithm: configuration.idTokenSigningAlgorithm
            ),
            behaviour: behaviour.openIDConnect,
            now: now,
            // Weak: the relying party lives inside this client and must not keep it alive.
            get: { [weak self] url in
                guard let self else { throw CancellationError() }
                return try await self.get(url)
            }
        )
        relyingParty = made
        return made
    }

    /// A plain GET through the client's own transport (pins and redirect policy included).
    private func get(_ url: String) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let answer = try await exchange(request)
        return (answer.status, answer.body)
    }

    // MARK: Lifecycle

    public func restart() async -> ClientOutcome {
        refreshInFlight = nil
        pendingAuthorization = nil
        loginGrant = nil
        // The app server's session lives in memory only: after a relaunch, leg 2 starts again.
        appServerSession = nil
        // Discovery, keys and the signed-in user were memory too; the user comes back from storage.
        relyingParty = nil
        if tokens != nil, let idToken = signInStore?.load(), let restored = openIDRelyingParty() {
            await restored.restore(signedInWith: idToken)
        }
        tokens = store?.load()
        return .success(
            status: 200,
            body: tokens == nil ? "restarted without tokens" : "restarted with persisted tokens"
        )
    }

    public func storedTokens() async -> StoredTokens? {
        tokens.map { StoredTokens(accessToken: $0.accessToken, refreshToken: $0.refreshToken, expiresAt: $0.expiresAt) }
    }

    /// Every change of tokens goes through here, so memory and the store agree unless a defect
    /// says otherwise.
    private func replaceTokens(with new: TokenSet?, persisting: Bool) {
        tokens = new
        if persisting { store?.save(new) }
    }

    public func request(method: String, url: String) async -> ClientOutcome {
        if let appServer = configuration.appServerTokenEndpointURL, AppServerSession.isSameOrigin(url, as: appServer) {
            guard let appServerSession else {
                return .failure(
                    ClientFailure(
                        .authorizationRequired,
                        message: "no session at the app server: exchange the sign-in first"
                    )
                )
            }
            return await appServerSession.request(method: method, url: url)
        }
        guard behaviour.callsTheResource else {
            return .failure(ClientFailure(.protocolViolation, message: "the call was not sent"))
        }
        var sentToken: String
        switch await usableAccessToken() {
        case .success(let token): sentToken = token
        case .failure where !behaviour.keepsTokensWhenRefreshFails && tokens == nil:
            // The defect's application carries on without a token, as if the call needed none.
            return await sendUnauthenticated(method: method, url: url)
        case .failure(let failure): return .failure(failure)
        }
        do {
            var answer = try await send(method: method, url: url, bearer: sentToken)
            var rounds = 0
            while isRecoverable(answer) {
                guard rounds < behaviour.replayRoundsPer401 else {
                    return .failure(
                        ClientFailure(
                            .authorizationRequired,
                            message: "the resource rejected the refreshed access token too (\(answer.status))"
                        )
                    )
                }
                rounds += 1
                let replayToken: String
                switch behaviour.unauthorizedRecovery {
                case .none:
                    return .failure(
                        ClientFailure(.authorizationRequired, message: "the resource rejected the access token (401)")
                    )
                case .refreshAndReplayOnce, .replayWithStaleToken:
                    // RR-06: a concurrent request may already have replaced the rejected token.
                    if behaviour.replaysStaleCredentialWithoutRefresh, let current = tokens?.accessToken,
                        current != sentToken
                    {
                        replayToken = current
                    } else {
                        switch await refresh() {
                        case .success(let refreshed): replayToken = refreshed.accessToken
                        case .failure where behaviour.replaysAfterFailedRefresh: replayToken = sentToken
                        case .failure(let failure): return .failure(failure)
                        }
                    }
                }
                sentToken = behaviour.unauthorizedRecovery == .replayWithStaleToken ? sentToken : replayToken
                answer = try await send(method: method, url: url, bearer: sentToken)
            }
            if rounds > 0, answer.status == 401 {
                return .failure(
                    ClientFailure(
                        .authorizationRequired,
                        message: "the resource rejected the refreshed access token too (401)"
                    )
                )
            }
            return .success(status: answer.status, body: answer.body)
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    private func sendUnauthenticated(method: String, url: String) async -> ClientOutcome {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        do {
            let answer = try await exchange(request)
            return .success(status: answer.status, body: answer.body)
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    /// A 401 `invalid_token` can be cured by a new token; a 403 `insufficient_scope` cannot (RFC 6750 §3.1).
    private func isRecoverable(_ answer: Answer) -> Bool {
        switch answer.status {
        case 401: Self.isInvalidTokenChallenge(answer.headers)
        case 403:
            behaviour.refreshesOnInsufficientScope
                && answer.headers["WWW-Authenticate"].contains { $0.lowercased().contains("insufficient_scope") }
        default: false
        }
    }

    // MARK: Tokens

    /// The access token to send, refreshed first when it is inside the refresh window.
    private func usableAccessToken() async -> Result<String, ClientFailure> {
        guard let current = tokens else {
            return .failure(ClientFailure(.authorizationRequired, message: "no tokens: sign in first"))
        }
        guard current.needsRefresh(at: now(), leeway: leeway(for: current)) else {
            return .success(current.accessToken)
        }
        // RFC 6749 §4.4.3: without a refresh token, a client_credentials client simply asks again.
        if current.refreshToken != nil || loginGrant == .clientCredentials {
            return await refresh().map(\.accessToken)
        }
        guard !current.isExpired(at: now()) else {
            return .failure(
                ClientFailure(.authorizationRequired, message: "the access token expired and there is no refresh token")
            )
        }
        return .success(current.accessToken)
    }

    /// The refresh window, shortened to half the stated lifetime for tokens that live less than
    /// twice the window, so a short-lived token is not refreshed on every request (PR-05).
    private func leeway(for tokens: TokenSet) -> Duration {
        guard behaviour.clampsLeewayToHalfLifetime, let lifetime = tokens.lifetime else {
            return behaviour.refreshLeeway
        }
        return min(behaviour.refreshLeeway, .seconds(lifetime / 2))
    }

    /// One refresh at a time: concurrent callers wait for the refresh already under way, and
    /// share its result, failure included (SF-03).
    private func refresh() async -> Result<TokenSet, ClientFailure> {
        guard behaviour.sharesOneRefresh else { return await performRefresh() }
        if let inFlight = refreshInFlight {
            let heldRefreshToken = tokens?.refreshToken
            let shared = await inFlight.value
            if behaviour.waitersRetryFailedRefresh, case .failure = shared, let heldRefreshToken {
                return await requestTokens(
                    [("grant_type", "refresh_token"), ("refresh_token", heldRefreshToken)],
                    previous: nil
                )
            }
            return shared
        }
        let task = Task { await self.performRefresh() }
        refreshInFlight = task
        let result = await task.value
        if refreshInFlight == task { refreshInFlight = nil }
        return result
    }

    private func performRefresh() async -> Result<TokenSet, ClientFailure> {
        guard let previous = tokens else {
            return .failure(ClientFailure(.authorizationRequired, message: "no tokens: sign in first"))
        }
        let form: [(String, String)]
        if let refreshToken = previous.refreshToken {
            form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        } else if loginGrant == .clientCredentials, let again = grantForm(.clientCredentials) {
            form = again
        } else {
            return .failure(ClientFailure(.authorizationRequired, message: "no refresh token: sign in again"))
        }
        var result = await requestTokens(form, previous: previous)
        var repeats = 0
        while behaviour.refreshesAgainOnInvalidClient, repeats < 10, case .failure(let failure) = result,
            failure.category == .invalidClient
        {
            repeats += 1
            result = await requestTokens(form, previous: previous)
        }
        if case .success(let refreshed) = result, let relyingParty {
            if case .failure(let refused) = await relyingParty.acceptRefresh(refreshed) {
                // §12.2: never another user. The refused response's tokens are dropped; the session stays.
                return .failure(refused)
            }
            signInStore?.save(await relyingParty.signedInIDToken)
        }
        switch result {
        case .success(let refreshed):
            replaceTokens(with: refreshed, persisting: behaviour.persistsRefreshedTokens)
        case .failure(let failure) where failure.oauthError == "invalid_grant":
            // RFC 6749 §5.2: the grant is dead; retrying it cannot help, only a new sign-in can.
            if behaviour.discardsTokensOnInvalidGrant { replaceTokens(with: nil, persisting: true) }
        case .failure(let failure) where failure.category == .transient:
            if !behaviour.keepsTokensOnTransientFailure || !behaviour.keepsTokensWhenRefreshFails {
                replaceTokens(with: nil, persisting: true)
            }
        case .failure:
            if !behaviour.keepsTokensWhenRefreshFails { replaceTokens(with: nil, persisting: true) }
        }
        if case .failure = result, !behaviour.discardsPasswordOnceTokensArrive, loginGrant == .password,
            let again = grantForm(.password)
        {
            let signedInAgain = await requestTokens(again, previous: nil)
            if case .success(let obtained) = signedInAgain { replaceTokens(with: obtained, persisting: true) }
            return signedInAgain
        }
        return result
    }

    private func requestTokens(
        _ fields: [(String, String)],
        previous: TokenSet?
    ) async -> Result<TokenSet, ClientFailure> {
        if let quietUntil = tokenEndpointQuietUntil, now() < quietUntil {
            let wait = Int(quietUntil.timeIntervalSince(now()).rounded(.up))
            return .failure(
                ClientFailure(
                    .transient,
                    message: "the token endpoint asked for no requests for another \(wait) s (Retry-After)"
                )
            )
        }
        var result = await exchangeTokens(fields, previous: previous)
        var attempts = 1
        while attempts < behaviour.attemptsOnServerError, case .failure(let failure) = result,
            failure.category == .transient
        {
            attempts += 1
            result = await exchangeTokens(fields, previous: previous)
        }
        return result
    }

    /// One token request and its answer, read as RFC 6749 §5.1 and §5.2 say; with DPoP, sent
    /// again with a new proof (and a new assertion) when the server demands a nonce (RFC 9449 §8).
    private func exchangeTokens(
        _ fields: [(String, String)],
        previous: TokenSet?
    ) async -> Result<TokenSet, ClientFailure> {
        var nonceRetries = 0
        while true {
            let request: HTTPClientRequest
            let form: [(String, String)]
            switch await authenticatedPost(to: configuration.tokenEndpointURL, fields) {
            case .success(let built): (request, form) = built
            case .failure(let failure): return .failure(failure)
            }
            switch await exchangeTokenRequest(request, form: form, previous: previous) {
            case .answered(let result): return result
            case .nonceDemanded where nonceRetries < (dpop?.nonceRetries ?? 0): nonceRetries += 1
            case .nonceDemanded(let result): return result
            }
        }
    }

    private enum TokenAnswer {
        case answered(Result<TokenSet, ClientFailure>)
        /// The server demanded a DPoP nonce it had not given before; the result, if the client stops here.
        case nonceDemanded(Result<TokenSet, ClientFailure>)
    }

    private func exchangeTokenRequest(
        _ request: HTTPClientRequest,
        form: [(String, String)],
        previous: TokenSet?
    ) async -> TokenAnswer {
        var request = request
        do {
            if let dpop {
                let proof = try await dpop.proof(
                    method: "POST",
                    url: configuration.tokenEndpointURL,
                    accessToken: nil,
                    server: .authorizationServer,
                    now: now()
                )
                request.headers.add(name: "DPoP", value: proof)
            }
        } catch {
            return .answered(
                .failure(ClientFailure(.unexpected, message: "the DPoP proof could not be signed: \(error)"))
            )
        }
        do {
            let answer = try await exchange(request)
            noteRetryAfter(answer.headers)
            let nonceDemanded =
                await dpop?.noteAnswer(
                    status: answer.status,
                    headers: answer.headers,
                    body: answer.body,
                    from: .authorizationServer
                ) ?? false
            let result = interpreter.interpret(
                status: answer.status,
                body: answer.body,
                receivedAt: now(),
                previous: previous,
                serverDate: answer.headers["Date"].first.flatMap(Self.httpDate),
                askedForDPoP: dpop != nil
            )
            guard !nonceDemanded else { return .nonceDemanded(result) }
            return .answered(redactingCredentials(result, form: form))
        } catch {
            return .answered(.failure(Self.transportFailure(error)))
        }
    }

    private func redactingCredentials(
        _ result: Result<TokenSet, ClientFailure>,
        form: [(String, String)]
    ) -> Result<TokenSet, ClientFailure> {
        guard !behaviour.keepsCredentialsOutOfErrors else { return result }
        // The defect quotes the whole request in its errors, credentials and all.
        return result.mapError { failure in
            ClientFailure(
                failure.category,
                oauthError: failure.oauthError,
                message: failure.message + " (request: \(FormEncoding.encode(form)))"
            )
        }
    }

    /// A form POST to an endpoint of the authorization server (token, PAR) with the client's
    /// authentication: an assertion, HTTP Basic or the secret in the body; the request and the
    /// form it carries.
    private func authenticatedPost(
        to endpoint: String,
        _ fields: [(String, String)]
    ) async -> Result<(HTTPClientRequest, [(String, String)]), ClientFailure> {
        var form = fields
        var url = endpoint
        if !behaviour.keepsClientSecretOutOfURLs {
            url +=
                "?"
                + FormEncoding.encode([
                    ("client_id", configuration.client.id), ("client_secret", configuration.client.secret),
                ])
        }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if configuration.clientAssertionKey != nil || configuration.signsAssertionsWithSecret {
            switch await clientAssertion() {
            case .success(let assertion):
                form += [
                    ("client_id", configuration.client.id),
                    ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                    ("client_assertion", assertion),
                ]
            case .failure(let failure):
                return .failure(failure)
            }
        } else {
            switch configuration.authentication {
            case .basic:
                request.headers.add(
                    name: "Authorization",
                    value: FormEncoding.basicAuthorization(
                        id: configuration.client.id,
                        secret: configuration.client.secret
                    )
                )
            case .requestBody:
                form += [("client_id", configuration.client.id), ("client_secret", configuration.client.secret)]
            }
        }
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        return .success((request, form))
    }

    /// A `private_key_jwt` assertion for one token request (RFC 7523 §3): a fresh `jti` every
    /// time, dated by the clock the client reads, for the token endpoint.
    private func clientAssertion() async -> Result<String, ClientFailure> {
        if !behaviour.freshClientAssertions, let lastAssertion { return .success(lastAssertion) }
        do {
            let signer: ClientAssertionSigner
            if let assertionSigner {
                signer = assertionSigner
            } else {
                signer =
                    try await configuration.signsAssertionsWithSecret
                    ? ClientAssertionSigner(clientSecret: configuration.client.secret)
                    : ClientAssertionSigner(privateJWK: configuration.clientAssertionKey ?? "")
                assertionSigner = signer
            }
            let assertion = try await signer.assertion(
                clientID: configuration.client.id,
                audience: configuration.tokenEndpointURL,
                issuedAt: behaviour.datesAssertionsByClientClock ? now() : Date(),
                jti: AuthorizationRequest.random()
            )
            lastAssertion = assertion
            return .success(assertion)
        } catch {
            return .failure(ClientFailure(.unexpected, message: "the client assertion could not be signed: \(error)"))
        }
    }

    /// RFC 9110 §10.2.3: `Retry-After` is delay-seconds or an HTTP-date.
    private func noteRetryAfter(_ headers: HTTPHeaders) {
        guard behaviour.honoursRetryAfter,
            let value = headers["Retry-After"].first?.trimmingCharacters(in: .whitespaces)
        else { return }
        if let seconds = Int(value), seconds >= 0 {
            tokenEndpointQuietUntil = now().addingTimeInterval(TimeInterval(seconds))
        } else if behaviour.readsRetryAfterDates, let date = Self.httpDate(value) {
            tokenEndpointQuietUntil = date
        }
    }

    /// IMF-fixdate, the form RFC 9110 §5.6.7 requires senders to use.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }

    // MARK: HTTP

    private struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: String
    }

    private func send(method: String, url: String, bearer: String) async throws -> Answer {
        var target = url
        var query: [(String, String)] = []
        if behaviour.accessTokenPlacement == .queryParameter { query.append(("access_token", bearer)) }
        if !behaviour.keepsClientSecretFromResource {
            query += [("client_id", configuration.client.id), ("client_secret", configuration.client.secret)]
        }
        if !query.isEmpty { target += (url.contains("?") ? "&" : "?") + FormEncoding.encode(query) }
        var request = HTTPClientRequest(url: target)
        request.method = HTTPMethod(rawValue: method)
        if !behaviour.keepsRefreshTokenFromResource, let refreshToken = tokens?.refreshToken {
            request.headers.add(name: "X-Refresh-Token", value: refreshToken)
        }
        guard let dpop, tokens?.dpopBound == true, behaviour.dpop.presentsBoundTokensWithProof else {
            if behaviour.accessTokenPlacement == .authorizationHeader {
                request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
            }
            return try await exchange(request)
        }
        // RFC 9449 §7.1: the DPoP scheme, and a proof of this request by the token's key; §9: a
        // nonce the resource demands is added in a new proof, as often as `nonceRetries` allows.
        request.headers.add(name: "Authorization", value: "DPoP \(bearer)")
        let server = DPoPNonceBook.Server.resource(at: url)
        var nonceRetries = 0
        while true {
            var proved = request
            let proof = try await dpop.proof(
                method: method,
                url: target,
                accessToken: bearer,
                server: server,
                now: now()
            )
            proved.headers.add(name: "DPoP", value: proof)
            let answer = try await exchange(proved)
            let demanded = await dpop.noteAnswer(
                status: answer.status,
                headers: answer.headers,
                body: answer.body,
                from: server
            )
            guard demanded, nonceRetries < dpop.nonceRetries else { return answer }
            nonceRetries += 1
        }
    }

    /// Sends the request and reads the answer. The conforming client stops at a redirect and
    /// reports it; the defect that follows redirects sends the same request, credentials and all,
    /// to wherever `Location` points.
    private func exchange(_ request: HTTPClientRequest) async throws -> Answer {
        var request = request
        var redirectsFollowed = 0
        while true {
            try await requirePinnedKey(for: request.url)
            let response = try await http.execute(request, timeout: configuration.requestTimeout)
            let body = try await response.body.collect(upTo: Self.maximumBodySize)
            let answer = Answer(
                status: Int(response.status.code),
                headers: response.headers,
                body: String(buffer: body)
            )
            guard behaviour.followsRedirects, redirectsFollowed < Self.mostRedirectsFollowed,
                (300..<400).contains(answer.status),
                let location = response.headers.first(name: "Location")
            else { return answer }
            request.url = location
            redirectsFollowed += 1
        }
    }

    private static let mostRedirectsFollowed = 3

    /// Before the first request to an HTTPS origin, its certificate must carry the pinned key.
    private func requirePinnedKey(for url: String) async throws {
        guard let pin, let components = URLComponents(string: url), components.scheme == "https",
            let host = components.host
        else { return }
        let origin = "\(host):\(components.port ?? 443)"
        guard !pinnedOriginsVerified.contains(origin) else { return }
        try await pin.verify(host: host, port: components.port ?? 443)
        pinnedOriginsVerified.insert(origin)
    }

    /// RFC 6750 §3.1: a Bearer challenge with `invalid_token`, or with no error code at all; and
    /// RFC 9449 §7.1's DPoP challenge alike.
    static func isInvalidTokenChallenge(_ headers: HTTPHeaders) -> Bool {
        headers["WWW-Authenticate"].contains { challenge in
            let lowered = challenge.lowercased()
            guard lowered.hasPrefix("bearer") || lowered.hasPrefix("dpop") else { return false }
            return !lowered.contains("error=") || lowered.contains("error=\"invalid_token\"")
        }
    }

    private static func transportFailure(_ error: any Error) -> ClientFailure {
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError
            || error is PublicKeyPin.Mismatch
        {
            return ClientFailure(.tls, message: "TLS handshake refused: \(error)")
        }
        return ClientFailure(.transient, message: "transport error: \(error)")
    }

    private static func outcome(of result: Result<TokenSet, ClientFailure>) -> ClientOutcome {
        switch result {
        case .success: .success(status: 200, body: "")
        case .failure(let failure): .failure(failure)
        }
    }
}

/// Makes a reference client per scenario, reading the scenario's virtual clock.
public struct ReferenceClientFactory: ClientFactory {
    public var behaviour: ClientBehaviour
    public var profile: ClientProfile
    /// Generous, so that a CI machine under load never turns a slow answer into a failure; no
    /// built-in scenario waits for it (a provider that never answers would cost this much per client).
    public var requestTimeout: TimeAmount = .seconds(10)

    public init(behaviour: ClientBehaviour = .conforming, name: String = "reference") {
        self.behaviour = behaviour
        // A defective variant declares what the conforming client declares; only its behaviour differs.
        self.profile = ClientProfile(
            name: name,
            version: Harness.version,
            capabilities: [
                .proactiveRefresh, .refreshOn401, .authorizationCode, .restart, .customCA, .pinning, .virtualClock,
                .concurrency, .openID, .idTokenSignature, .idTokenExchange, .privateKeyJWT,
                .clientSecretJWT, .pushedAuthorizationRequests, .deviceGrant, .dpop, .dpopDowngradeRefused,
            ],
            refreshWindow: ClientBehaviour.conforming.refreshLeeway,
            idTokenClockSkew: ClientBehaviour.conforming.openIDConnect.allowedClockSkew,
            jwksRefetchInterval: ClientBehaviour.conforming.openIDConnect.minimumKeySetRefetchInterval
        )
    }

    public func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        let clock = environment.clock
        return ReferenceClient(
            configuration: .init(environment, requestTimeout: requestTimeout),
            behaviour: behaviour,
            now: { clock.now }
        )
    }
}
