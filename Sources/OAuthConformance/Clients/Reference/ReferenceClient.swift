import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1

/// The bundled conforming client: the default client under test, and the yardstick every check
/// is proven against. Proactive refresh inside a window, one refresh and one replay on a 401
/// `invalid_token`, single-flight refresh, the previous refresh token kept when a refresh
/// response carries none, RFC 6749 §5.2 errors mapped to typed failures.
public actor ReferenceClient: ClientUnderTest {
    public struct Configuration: Sendable {
        public enum ClientAuthentication: Sendable { case basic, requestBody }

        public var tokenEndpointURL: String
        public var client: ClientCredentials
        public var user: UserCredentials
        public var authentication: ClientAuthentication

        public init(tokenEndpointURL: String, client: ClientCredentials, user: UserCredentials, authentication: ClientAuthentication = .basic) {
            self.tokenEndpointURL = tokenEndpointURL
            self.client = client
            self.user = user
            self.authentication = authentication
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

    public init(configuration: Configuration, behaviour: ClientBehaviour = .conforming, now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.behaviour = behaviour
        self.now = now
        self.interpreter = TokenResponseInterpreter(behaviour: behaviour)
        var httpConfiguration = HTTPClient.Configuration()
        // Following a redirect would carry the Authorization header to wherever it points.
        httpConfiguration.redirectConfiguration = .disallow
        httpConfiguration.timeout = .init(connect: .seconds(5), read: Self.requestTimeout)
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
        var result = await requestTokens(form, previous: nil)
        if behaviour.retriesTokenErrors, case .failure(let failure) = result, failure.oauthError != nil {
            result = await requestTokens(form, previous: nil)
        }
        if case .success(let obtained) = result {
            tokens = obtained
            loginGrant = grant
        }
        return Self.outcome(of: result)
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
            tokens = refreshed
        case .failure(let failure) where failure.oauthError == "invalid_grant":
            // RFC 6749 §5.2: the grant is dead; retrying it cannot help, only a new sign-in can.
            tokens = nil
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
            let response = try await http.execute(request, timeout: Self.requestTimeout)
            let body = try await response.body.collect(upTo: Self.maximumBodySize)
            return interpreter.interpret(status: Int(response.status.code), body: String(buffer: body), receivedAt: now(), previous: previous)
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
        let response = try await http.execute(request, timeout: Self.requestTimeout)
        let body = try await response.body.collect(upTo: Self.maximumBodySize)
        return Answer(status: Int(response.status.code), headers: response.headers, body: String(buffer: body))
    }

    /// RFC 6750 §3.1: a Bearer challenge with `invalid_token`, or with no error code at all.
    static func isInvalidTokenChallenge(_ headers: HTTPHeaders) -> Bool {
        headers["WWW-Authenticate"].contains { challenge in
            let lowered = challenge.lowercased()
            guard lowered.hasPrefix("bearer") else { return false }
            return !lowered.contains("error=") || lowered.contains("error=\"invalid_token\"")
        }
    }

    private static func transportFailure(_ error: any Error) -> ClientFailure {
        ClientFailure(.transient, message: "transport error: \(error)")
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
            capabilities: [.proactiveRefresh, .refreshOn401, .virtualClock, .concurrency],
            refreshWindow: ClientBehaviour.conforming.refreshLeeway
        )
    }

    public func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        let clock = environment.clock
        return ReferenceClient(
            configuration: .init(tokenEndpointURL: environment.tokenEndpointURL, client: environment.client, user: environment.user),
            behaviour: behaviour,
            now: { clock.now }
        )
    }
}
