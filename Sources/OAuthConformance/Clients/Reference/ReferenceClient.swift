import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1
import NIOSSL

/// The bundled conforming client: the default client under test, and the yardstick every check
/// is proven against. Proactive refresh inside a window, one refresh and one replay on a 401
/// `invalid_token`, single-flight refresh, the previous refresh token kept when a refresh
/// response carries none, RFC 6749 §5.2 errors mapped to typed failures; the authorization code
/// flow with PKCE S256, `state` and `iss` checks; tokens persisted so a restart keeps them; no
/// redirect followed; only certificates from the CA it is given trusted.
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
        /// The only CA trusted for HTTPS; `nil` trusts the system's roots.
        public var caCertificateFile: String?
        /// Where tokens are persisted across `restart`; `nil` keeps them in memory only.
        public var tokenFile: URL?

        public init(
            tokenEndpointURL: String, client: ClientCredentials, user: UserCredentials, authentication: ClientAuthentication = .basic,
            authorizationEndpointURL: String? = nil, redirectURI: String? = nil, issuer: String? = nil,
            caCertificateFile: String? = nil, tokenFile: URL? = nil
        ) {
            self.tokenEndpointURL = tokenEndpointURL
            self.client = client
            self.user = user
            self.authentication = authentication
            self.authorizationEndpointURL = authorizationEndpointURL
            self.redirectURI = redirectURI
            self.issuer = issuer
            self.caCertificateFile = caCertificateFile
            self.tokenFile = tokenFile
        }

        /// Everything the scenario's environment offers.
        public init(_ environment: ClientEnvironment) {
            self.init(
                tokenEndpointURL: environment.tokenEndpointURL, client: environment.client, user: environment.user,
                authorizationEndpointURL: environment.authorizationEndpointURL, redirectURI: environment.redirectURI,
                issuer: environment.issuer, caCertificateFile: environment.caCertificateFile,
                tokenFile: environment.storageDirectory.appendingPathComponent("tokens.json")
            )
        }
    }

    static let maximumBodySize = 1 << 20
    static let requestTimeout = TimeAmount.seconds(30)

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

    public init(configuration: Configuration, behaviour: ClientBehaviour = .conforming, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.behaviour = behaviour
        self.now = now
        self.interpreter = TokenResponseInterpreter(behaviour: behaviour)
        self.store = configuration.tokenFile.map(TokenStore.init)
        self.tokens = store?.load()
        var httpConfiguration = HTTPClient.Configuration()
        // Redirects are followed by hand, when a defect asks for it; following one carries
        // credentials to wherever it points.
        httpConfiguration.redirectConfiguration = .disallow
        httpConfiguration.timeout = .init(connect: .seconds(5), read: Self.requestTimeout)
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
        let form: [(String, String)]
        switch grant {
        case .password:
            form = [("grant_type", grant.rawValue), ("username", configuration.user.username), ("password", configuration.user.password)]
        case .clientCredentials:
            form = [("grant_type", grant.rawValue)]
        case .refreshToken:
            return Self.outcome(of: await refresh())
        case .authorizationCode:
            return .failure(ClientFailure(.authorizationRequired, message: "the authorization code grant starts with an authorize step, not a login"))
        }
        return await obtainTokens(form, grant: grant)
    }

    private func obtainTokens(_ form: [(String, String)], grant: GrantType) async -> ClientOutcome {
        var result = await requestTokens(form, previous: nil)
        if behaviour.retriesTokenErrors, case .failure(let failure) = result, failure.oauthError != nil {
            result = await requestTokens(form, previous: nil)
        }
        if case .success(let obtained) = result {
            replaceTokens(with: obtained, persisting: true)
            loginGrant = grant
        }
        return Self.outcome(of: result)
    }

    // MARK: Authorization code flow

    public func authorizationURL() async -> Result<String, ClientFailure> {
        guard let endpoint = configuration.authorizationEndpointURL, let redirectURI = configuration.redirectURI else {
            return .failure(ClientFailure(.unsupported, message: "no authorization endpoint or redirect URI configured"))
        }
        let request = AuthorizationRequest(
            state: behaviour.unguessableState ? AuthorizationRequest.random() : "state",
            codeVerifier: AuthorizationRequest.random(), redirectURI: redirectURI
        )
        pendingAuthorization = request
        return .success(request.url(endpoint: endpoint, clientID: configuration.client.id, pkce: behaviour.pkce))
    }

    public func completeAuthorization(redirectURL: String) async -> ClientOutcome {
        // One redirect per request: a replayed redirect finds nothing pending.
        guard let request = pendingAuthorization else {
            return .failure(ClientFailure(.protocolViolation, message: "an authorization response arrived, but no authorization request is pending"))
        }
        pendingAuthorization = nil
        switch request.read(redirect: redirectURL, expectedIssuer: configuration.issuer ?? "", behaviour: behaviour) {
        case .failure(let failure):
            return .failure(failure)
        case .success(.error(let code, let description)):
            let category: ErrorCategory = code == "access_denied" ? .authorizationRequired : .oauthError
            return .failure(ClientFailure(category, oauthError: code, message: "the authorization request was refused: \(code)\(description.map { " (\($0))" } ?? "")"))
        case .success(.code(let code)):
            var form = [("grant_type", GrantType.authorizationCode.rawValue), ("code", code), ("redirect_uri", request.redirectURI)]
            if behaviour.pkce != .none { form.append(("code_verifier", request.codeVerifier)) }
            return await obtainTokens(form, grant: .authorizationCode)
        }
    }

    // MARK: Lifecycle

    public func restart() async -> ClientOutcome {
        refreshInFlight = nil
        pendingAuthorization = nil
        loginGrant = nil
        tokens = store?.load()
        return .success(status: 200, body: tokens == nil ? "restarted without tokens" : "restarted with persisted tokens")
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
        let sentToken: String
        switch await usableAccessToken() {
        case .success(let token): sentToken = token
        case .failure(let failure): return .failure(failure)
        }
        do {
            let first = try await send(method: method, url: url, bearer: sentToken)
            guard first.status == 401, Self.isInvalidTokenChallenge(first.headers) else {
                return .success(status: first.status, body: first.body)
            }
            let replayToken: String
            switch behaviour.unauthorizedRecovery {
            case .none:
                return .failure(ClientFailure(.authorizationRequired, message: "the resource rejected the access token (401)"))
            case .refreshAndReplayOnce, .replayWithStaleToken:
                // RR-06: a concurrent request may already have replaced the rejected token.
                if let current = tokens?.accessToken, current != sentToken {
                    replayToken = current
                } else {
                    switch await refresh() {
                    case .success(let refreshed): replayToken = refreshed.accessToken
                    case .failure(let failure): return .failure(failure)
                    }
                }
            }
            let replayed = try await send(
                method: method, url: url,
                bearer: behaviour.unauthorizedRecovery == .replayWithStaleToken ? sentToken : replayToken
            )
            guard replayed.status != 401 else {
                return .failure(ClientFailure(.authorizationRequired, message: "the resource rejected the refreshed access token too (401)"))
            }
            return .success(status: replayed.status, body: replayed.body)
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    // MARK: Tokens

    /// The access token to send, refreshed first when it is inside the refresh window.
    private func usableAccessToken() async -> Result<String, ClientFailure> {
        guard let current = tokens else {
            return .failure(ClientFailure(.authorizationRequired, message: "no tokens: sign in first"))
        }
        guard current.needsRefresh(at: now(), leeway: behaviour.refreshLeeway) else { return .success(current.accessToken) }
        if current.refreshToken != nil {
            return await refresh().map(\.accessToken)
        }
        if loginGrant == .clientCredentials {
            // RFC 6749 §4.4.3: no refresh token; the client simply asks again.
            return await login(.clientCredentials).succeeded
                ? .success(tokens?.accessToken ?? current.accessToken)
                : .failure(ClientFailure(.authorizationRequired, message: "could not obtain a new client_credentials token"))
        }
        guard !current.isExpired(at: now()) else {
            return .failure(ClientFailure(.authorizationRequired, message: "the access token expired and there is no refresh token"))
        }
        return .success(current.accessToken)
    }

    /// One refresh at a time: concurrent callers wait for the refresh already under way.
    private func refresh() async -> Result<TokenSet, ClientFailure> {
        guard behaviour.sharesOneRefresh else { return await performRefresh() }
        if let inFlight = refreshInFlight { return await inFlight.value }
        let task = Task { await self.performRefresh() }
        refreshInFlight = task
        let result = await task.value
        if refreshInFlight == task { refreshInFlight = nil }
        return result
    }

    private func performRefresh() async -> Result<TokenSet, ClientFailure> {
        guard let previous = tokens, let refreshToken = previous.refreshToken else {
            return .failure(ClientFailure(.authorizationRequired, message: "no refresh token: sign in again"))
        }
        let result = await requestTokens([("grant_type", "refresh_token"), ("refresh_token", refreshToken)], previous: previous)
        switch result {
        case .success(let refreshed):
            replaceTokens(with: refreshed, persisting: behaviour.persistsRefreshedTokens)
        case .failure(let failure) where failure.oauthError == "invalid_grant":
            // RFC 6749 §5.2: the grant is dead; retrying it cannot help, only a new sign-in can.
            replaceTokens(with: nil, persisting: true)
        case .failure:
            break
        }
        return result
    }

    private func requestTokens(_ fields: [(String, String)], previous: TokenSet?) async -> Result<TokenSet, ClientFailure> {
        var form = fields
        var request = HTTPClientRequest(url: configuration.tokenEndpointURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        switch configuration.authentication {
        case .basic:
            request.headers.add(name: "Authorization", value: FormEncoding.basicAuthorization(id: configuration.client.id, secret: configuration.client.secret))
        case .requestBody:
            form += [("client_id", configuration.client.id), ("client_secret", configuration.client.secret)]
        }
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        do {
            let answer = try await exchange(request)
            return interpreter.interpret(status: answer.status, body: answer.body, receivedAt: now(), previous: previous)
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    // MARK: HTTP

    private struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: String
    }

    private func send(method: String, url: String, bearer: String) async throws -> Answer {
        var request: HTTPClientRequest
        switch behaviour.accessTokenPlacement {
        case .authorizationHeader:
            request = HTTPClientRequest(url: url)
            request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
        case .queryParameter:
            request = HTTPClientRequest(url: url + (url.contains("?") ? "&" : "?") + "access_token=" + FormEncoding.encode(bearer))
        }
        request.method = HTTPMethod(rawValue: method)
        if !behaviour.keepsRefreshTokenFromResource, let refreshToken = tokens?.refreshToken {
            request.headers.add(name: "X-Refresh-Token", value: refreshToken)
        }
        return try await exchange(request)
    }

    /// Sends the request and reads the answer. The conforming client stops at a redirect and
    /// reports it; the defect that follows redirects sends the same request, credentials and all,
    /// to wherever `Location` points.
    private func exchange(_ request: HTTPClientRequest) async throws -> Answer {
        var request = request
        var redirectsFollowed = 0
        while true {
            let response = try await http.execute(request, timeout: Self.requestTimeout)
            let body = try await response.body.collect(upTo: Self.maximumBodySize)
            let answer = Answer(status: Int(response.status.code), headers: response.headers, body: String(buffer: body))
            guard behaviour.followsRedirects, redirectsFollowed < Self.mostRedirectsFollowed, (300..<400).contains(answer.status),
                  let location = response.headers.first(name: "Location")
            else { return answer }
            request.url = location
            redirectsFollowed += 1
        }
    }

    private static let mostRedirectsFollowed = 3

    /// RFC 6750 §3.1: a Bearer challenge with `invalid_token`, or with no error code at all.
    static func isInvalidTokenChallenge(_ headers: HTTPHeaders) -> Bool {
        headers["WWW-Authenticate"].contains { challenge in
            let lowered = challenge.lowercased()
            guard lowered.hasPrefix("bearer") else { return false }
            return !lowered.contains("error=") || lowered.contains("error=\"invalid_token\"")
        }
    }

    private static func transportFailure(_ error: any Error) -> ClientFailure {
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
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

    public init(behaviour: ClientBehaviour = .conforming, name: String = "reference") {
        self.behaviour = behaviour
        // A defective variant declares what the conforming client declares; only its behaviour differs.
        self.profile = ClientProfile(
            name: name, version: Harness.version,
            capabilities: [.proactiveRefresh, .refreshOn401, .authorizationCode, .restart, .customCA, .virtualClock, .concurrency],
            refreshWindow: ClientBehaviour.conforming.refreshLeeway
        )
    }

    public func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        let clock = environment.clock
        return ReferenceClient(configuration: .init(environment), behaviour: behaviour, now: { clock.now })
    }
}
