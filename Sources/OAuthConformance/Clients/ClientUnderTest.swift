import Foundation
import MockProvider

/// A client being judged, for one scenario: a fresh instance per scenario, so no state leaks
/// between scenarios. Implement it to test a Swift client in process.
///
/// Only `login`, `request` and `shutdown` are required. The other operations have defaults that
/// report them unsupported; a client that implements one declares the matching `Capability`, and
/// scenarios that need a capability the client lacks are skipped with the reason.
public protocol ClientUnderTest: Sendable {
    /// Obtains tokens with the grant (not `authorization_code`, which starts with `authorizationURL`).
    func login(_ grant: GrantType) async -> ClientOutcome
    /// The authorization code flow's first half (RFC 6749 §4.1.1): the URL the client would open
    /// in the user's browser. The harness plays the browser and the user against the provider.
    func authorizationURL() async -> Result<String, ClientFailure>
    /// The flow's second half: the URL the browser was redirected to. The client checks it
    /// (`state`, `iss`, `error`) and redeems the code (RFC 6749 §4.1.2–4.1.3).
    func completeAuthorization(redirectURL: String) async -> ClientOutcome
    /// OpenID Connect sign-in's first half: the authentication request (OIDC Core §3.1.2.1) the
    /// client would open in the browser, with `openid` in `scope` and a fresh `nonce`. The client
    /// finds the provider through `ClientEnvironment.openIDConfigurationURL`.
    func signInURL() async -> Result<String, ClientFailure>
    /// Sign-in's second half: the client redeems the code and validates the ID token (§3.1.3.7).
    /// A refused ID token is a failure of category `id_token` whose message says which rule it
    /// broke; the tokens of that response must then be dropped. On success `identity()` reports
    /// who signed in.
    func completeSignIn(redirectURL: String) async -> ClientOutcome
    /// Fetches the signed-in user's claims from the userinfo endpoint (§5.3), as the application
    /// would: success's body is the claims the client accepted, as JSON; a response about another
    /// user is a failure of category `userinfo` (§5.3.2).
    func userinfo() async -> ClientOutcome
    /// The user the client holds as signed in: the `iss` and `sub` of the ID token it accepted
    /// last; `nil` when nobody is signed in. The runner asks after every step of a client that
    /// declares `openid`, so a silent change of user shows in the timeline and fails `same_user`.
    func identity() async -> SignedInIdentity?
    /// Leg 2 of a third-party sign-in: trades the signed-in user's ID token at the app's own server
    /// (`ClientEnvironment.appServerTokenEndpointURL`) for the app's own tokens, by RFC 8693 token
    /// exchange (`subject_token_type` `urn:ietf:params:oauth:token-type:id_token`) or the RFC 7523
    /// JWT bearer grant. With nobody signed in (leg 1 failed), `authorization_required` and no
    /// request. A refusal by the app server is category `exchange_refused` (a 5xx, `transient`),
    /// never one of leg 1's, and the user stays signed in with the provider. Afterwards `request`
    /// to the app server's origin carries the app's tokens, refreshed at the app server.
    func exchangeSignIn() async -> ClientOutcome
    /// The device authorization grant's start (RFC 8628 §3.1–3.3): the client asks the provider's
    /// device authorization endpoint (`ClientEnvironment.deviceAuthorizationEndpointURL`) and
    /// reports what the application shows the user.
    func startDeviceAuthorization() async -> Result<DevicePrompt, ClientFailure>
    /// One step of the polling (RFC 8628 §3.4–3.5): the client polls the token endpoint when its
    /// own rules say so, and answers how long it waits before the next poll, or how the flow ended.
    /// The harness moves the virtual clock by that wait and asks again, so minutes of polling cost
    /// milliseconds. `access_denied` and `expired_token` end the flow as failures with that code.
    func pollDeviceAuthorization() async -> DevicePoll
    /// Calls the protected resource the way the application would, letting the client attach,
    /// refresh and replay tokens as it sees fit.
    func request(method: String, url: String) async -> ClientOutcome
    /// As if the application were relaunched: everything held in memory is gone, what the client
    /// persisted (in `ClientEnvironment.storageDirectory`, say) is loaded again.
    func restart() async -> ClientOutcome
    /// The tokens the client holds now, as it would use them; `nil` when it holds none.
    func storedTokens() async -> StoredTokens?
    /// Makes the calls all at once, as a `concurrently` step asks: one outcome each, in order.
    /// The default starts each call in a task of its own.
    func perform(concurrently calls: [ClientCall]) async -> [ClientOutcome]
    /// Virtual time moved (an `advance` step). An in-process client reads `ClientEnvironment.clock`
    /// whenever it likes; this is for a client with timers of its own, or one that must be told.
    func clockAdvanced() async
    /// Why the client can no longer be driven, once it cannot: an adapter process that crashed,
    /// printed something that is not the protocol, or did not answer in time. The runner asks
    /// after every step and ends the scenario with an error verdict that quotes this.
    func fault() async -> String?
    /// What the client printed during the scenario (an adapter's stderr), for the report.
    func capturedOutput() async -> String?
    /// Releases connections and other resources.
    func shutdown() async
}

extension ClientUnderTest {
    public func authorizationURL() async -> Result<String, ClientFailure> {
        .failure(ClientFailure(.unsupported, message: "this client does not implement the authorization code flow"))
    }

    public func completeAuthorization(redirectURL: String) async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client does not implement the authorization code flow"))
    }

    public func restart() async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client cannot be restarted"))
    }

    public func signInURL() async -> Result<String, ClientFailure> {
        .failure(ClientFailure(.unsupported, message: "this client does not implement OpenID Connect sign-in"))
    }

    public func completeSignIn(redirectURL: String) async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client does not implement OpenID Connect sign-in"))
    }

    public func userinfo() async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client does not implement the userinfo call"))
    }

    public func identity() async -> SignedInIdentity? { nil }

    public func startDeviceAuthorization() async -> Result<DevicePrompt, ClientFailure> {
        .failure(ClientFailure(.unsupported, message: "this client does not implement the device authorization grant"))
    }

    public func pollDeviceAuthorization() async -> DevicePoll {
        .finished(
            .failure(
                ClientFailure(.unsupported, message: "this client does not implement the device authorization grant")
            )
        )
    }

    public func exchangeSignIn() async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client does not exchange ID tokens at an app server"))
    }

    public func storedTokens() async -> StoredTokens? { nil }

    public func perform(concurrently calls: [ClientCall]) async -> [ClientOutcome] {
        await withTaskGroup(of: (Int, ClientOutcome).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask { (index, await call.perform(on: self)) }
            }
            var outcomes: [(Int, ClientOutcome)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    public func clockAdvanced() async {}

    public func fault() async -> String? { nil }

    public func capturedOutput() async -> String? { nil }
}

/// One call of a `concurrently` step.
public enum ClientCall: Sendable, Equatable {
    case login(GrantType)
    case request(method: String, url: String)
    case restart

    public func perform(on client: some ClientUnderTest) async -> ClientOutcome {
        switch self {
        case .login(let grant): await client.login(grant)
        case .request(let method, let url): await client.request(method: method, url: url)
        case .restart: await client.restart()
        }
    }
}

/// The tokens a client holds, as it reports them.
public struct StoredTokens: Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String?
    /// When the client believes the access token expires; `nil` for "never" or "unknown".
    public var expiresAt: Date?

    public init(accessToken: String, refreshToken: String?, expiresAt: Date?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }
}

/// What the application shows the user of a device authorization (RFC 8628 §3.3).
public struct DevicePrompt: Sendable, Equatable, CustomStringConvertible {
    public var userCode: String
    public var verificationURI: String
    /// `nil` when the provider offered none (or the application does not show it).
    public var verificationURIComplete: String?

    public init(userCode: String, verificationURI: String, verificationURIComplete: String? = nil) {
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
    }

    public var description: String {
        "user code \(userCode) at \(verificationURI)" + (verificationURIComplete.map { " (or \($0))" } ?? "")
    }
}

/// Where a device authorization's polling stands after one step.
public enum DevicePoll: Sendable, Equatable {
    /// Still waiting for the user; the client polls again after this much time.
    case waiting(Duration)
    /// The flow ended: tokens obtained, or refused (`access_denied`, `expired_token`, …).
    case finished(ClientOutcome)
}

/// Who a client holds as signed in: the issuer and subject of the ID token it accepted
/// (OIDC Core §2: together they identify the user).
public struct SignedInIdentity: Sendable, Equatable, CustomStringConvertible {
    public var issuer: String
    public var subject: String

    /// What stands for a claim the accepted ID token lacked: no provider issues it.
    public static let missingClaim = "(missing)"

    public init(issuer: String, subject: String) {
        self.issuer = issuer
        self.subject = subject
    }

    /// e.g. "sub user-1 at https://127.0.0.1:4711".
    public var description: String { "sub \(subject) at \(issuer)" }
}

/// Makes a client under test for each scenario and says what the client declares about itself.
public protocol ClientFactory: Sendable {
    var profile: ClientProfile { get }
    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest
}

/// What a client needs to talk to the provider of one scenario run.
public struct ClientEnvironment: Sendable {
    public var tokenEndpointURL: String
    public var authorizationEndpointURL: String
    public var resourceBaseURL: String
    /// The provider's issuer identifier (RFC 8414), which RFC 9207's `iss` must equal.
    public var issuer: String
    /// Where the provider sends the browser back to; registered for the client.
    public var redirectURI: String
    public var client: ClientCredentials
    public var user: UserCredentials
    /// The virtual clock; an in-process client reads its time here.
    public var clock: VirtualClock
    /// The PEM file of the CA that signed the provider's certificate, when it speaks HTTPS.
    public var caCertificateFile: String?
    /// The provider's public key as a pinning client pins it, when it speaks HTTPS: base64 of the
    /// SHA-256 of its DER SubjectPublicKeyInfo (the `pin-sha256` of RFC 7469).
    public var pinnedPublicKeySHA256: String?
    /// A directory of the client's own for what it persists; it outlives `restart` and is
    /// removed when the scenario ends.
    public var storageDirectory: URL
    /// The provider's OpenID Connect discovery document (`<issuer>/.well-known/openid-configuration`),
    /// where a relying party finds its endpoints and signing keys.
    public var openIDConfigurationURL: String
    /// The ID token signing algorithm the client is registered with (`id_token_signed_response_alg`,
    /// OIDC Dynamic Registration §2): RS256 unless the scenario registers another.
    public var idTokenSigningAlgorithm: String
    /// The app's own server (another origin, another issuer): where leg 2 of a third-party
    /// sign-in trades the provider's ID token for the app's tokens, and refreshes them.
    public var appServerTokenEndpointURL: String?
    /// For a client registered with `private_key_jwt`: the private JWK (ES256, with `kid`) it signs
    /// its client assertions with; `nil` when it authenticates with its secret.
    public var clientAssertionKey: String?
    /// RFC 9126: for a scenario whose provider takes pushed authorization requests, where to push
    /// them; `nil` otherwise.
    public var pushedAuthorizationEndpointURL: String?
    /// RFC 8628 §3.1: the provider's device authorization endpoint.
    public var deviceAuthorizationEndpointURL: String?
    /// RFC 9449 §5.1: the algorithms the provider takes DPoP proofs signed with, when the scenario's
    /// provider offers DPoP; `nil` otherwise.
    public var dpopSigningAlgorithms: [String]?
    /// How the client is registered to authenticate: its secret (Basic or in the body), or
    /// assertions (`private_key_jwt` with `clientAssertionKey`, `client_secret_jwt` with its secret).
    public var clientAuthentication: ClientAuthenticationMethod

    public init(
        tokenEndpointURL: String,
        authorizationEndpointURL: String,
        resourceBaseURL: String,
        issuer: String,
        redirectURI: String,
        client: ClientCredentials,
        user: UserCredentials,
        clock: VirtualClock,
        caCertificateFile: String? = nil,
        pinnedPublicKeySHA256: String? = nil,
        storageDirectory: URL,
        openIDConfigurationURL: String? = nil,
        idTokenSigningAlgorithm: String = "RS256",
        appServerTokenEndpointURL: String? = nil,
        clientAssertionKey: String? = nil,
        pushedAuthorizationEndpointURL: String? = nil,
        deviceAuthorizationEndpointURL: String? = nil,
        dpopSigningAlgorithms: [String]? = nil,
        clientAuthentication: ClientAuthenticationMethod? = nil
    ) {
        self.dpopSigningAlgorithms = dpopSigningAlgorithms
        self.clientAuthentication = clientAuthentication ?? (clientAssertionKey == nil ? .clientSecret : .privateKeyJWT)
        self.tokenEndpointURL = tokenEndpointURL
        self.authorizationEndpointURL = authorizationEndpointURL
        self.resourceBaseURL = resourceBaseURL
        self.issuer = issuer
        self.redirectURI = redirectURI
        self.client = client
        self.user = user
        self.clock = clock
        self.caCertificateFile = caCertificateFile
        self.pinnedPublicKeySHA256 = pinnedPublicKeySHA256
        self.storageDirectory = storageDirectory
        self.openIDConfigurationURL = openIDConfigurationURL ?? issuer + "/.well-known/openid-configuration"
        self.idTokenSigningAlgorithm = idTokenSigningAlgorithm
        self.appServerTokenEndpointURL = appServerTokenEndpointURL
        self.clientAssertionKey = clientAssertionKey
        self.pushedAuthorizationEndpointURL = pushedAuthorizationEndpointURL
        self.deviceAuthorizationEndpointURL = deviceAuthorizationEndpointURL
    }
}

/// What a client declares: scenarios take policy values from here instead of hard-coding them.
public struct ClientProfile: Sendable, Equatable {
    public var name: String
    public var version: String
    public var capabilities: Set<Capability>
    /// How long before expiry the client refreshes proactively.
    public var refreshWindow: Duration?
    /// What the client makes of a token response without `expires_in`; `nil` when it does not say.
    public var missingExpiresIn: MissingExpiresInPolicy?
    /// The leeway the client allows on an ID token's `exp` and `iat` (OIDC Core §3.1.3.7 steps 9
    /// and 10 leave it to the client); `nil` when it does not say, and scenarios written around
    /// it are skipped.
    public var idTokenClockSkew: Duration?
    /// The shortest time the client leaves between two JWKS fetches prompted by a `kid` it does not
    /// know (zero: at most one per such token); `nil` when it does not say.
    public var jwksRefetchInterval: Duration?
    /// Scenarios the client is known to fail: reported as expected failures, not as failures,
    /// so CI stays green on known gaps; one of them that passes is reported as a failure.
    public var expectedFailures: [ExpectedFailure]

    public init(
        name: String,
        version: String,
        capabilities: Set<Capability>,
        refreshWindow: Duration?,
        missingExpiresIn: MissingExpiresInPolicy? = nil,
        idTokenClockSkew: Duration? = nil,
        jwksRefetchInterval: Duration? = nil,
        expectedFailures: [ExpectedFailure] = []
    ) {
        self.name = name
        self.version = version
        self.capabilities = capabilities
        self.refreshWindow = refreshWindow
        self.missingExpiresIn = missingExpiresIn
        self.idTokenClockSkew = idTokenClockSkew
        self.jwksRefetchInterval = jwksRefetchInterval
        self.expectedFailures = expectedFailures
    }
}

/// What a client makes of an access token whose response carried no `expires_in` (RFC 6749 §5.1
/// makes it optional).
public enum MissingExpiresInPolicy: Sendable, Equatable {
    /// The token is used until the resource rejects it.
    case neverExpires
    /// The client assumes this lifetime.
    case assumedLifetime(Duration)
}

/// A scenario a client is known to fail, as its profile lists it.
public struct ExpectedFailure: Sendable, Equatable {
    /// A scenario id; `*` matches any run of characters, so `errors/token-error-surfaced/*`
    /// covers every row of a matrix.
    public var scenario: String
    /// Why it fails: the known gap, for the report.
    public var reason: String

    public init(scenario: String, reason: String) {
        self.scenario = scenario
        self.reason = reason
    }

    public func matches(_ id: String) -> Bool {
        Self.matches(Substring(scenario), Substring(id))
    }

    private static func matches(_ pattern: Substring, _ text: Substring) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" {
            let rest = pattern.dropFirst()
            var tail = text
            while true {
                if matches(rest, tail) { return true }
                guard !tail.isEmpty else { return false }
                tail = tail.dropFirst()
            }
        }
        guard let character = text.first, character == first else { return false }
        return matches(pattern.dropFirst(), text.dropFirst())
    }
}

/// How a client step ended, as the client reports it.
public enum ClientOutcome: Sendable, Equatable {
    /// The operation completed; for a request, with the final HTTP answer the application saw.
    case success(status: Int, body: String)
    case failure(ClientFailure)

    /// The failure, or nil for a success.
    public var failure: ClientFailure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }

    /// Success with a 2xx status: what "the step succeeds" means.
    public var succeeded: Bool {
        if case .success(let status, _) = self { return (200..<300).contains(status) }
        return false
    }
}

/// An error the client surfaced to the application.
public struct ClientFailure: Error, Sendable, Equatable {
    public var category: ErrorCategory
    /// The RFC 6749 §5.2 `error` code, when the provider sent one.
    public var oauthError: String?
    public var message: String
    /// The client library's own name for the error (an exception class, say), for the report.
    public var errorType: String?

    public init(_ category: ErrorCategory, oauthError: String? = nil, message: String, errorType: String? = nil) {
        self.category = category
        self.oauthError = oauthError
        self.message = message
        self.errorType = errorType
    }
}

/// How a client classifies what went wrong, so checks can tell errors apart.
public enum ErrorCategory: String, Sendable, Hashable, CaseIterable {
    /// The user must sign in again: no tokens, or the grant is dead (`invalid_grant`).
    case authorizationRequired = "authorization_required"
    /// The provider rejected the client's own credentials (`invalid_client`).
    case invalidClient = "invalid_client"
    /// Any other RFC 6749 §5.2 error response.
    case oauthError = "oauth_error"
    /// A failure worth retrying later: 5xx, 429, a dropped connection, a timeout.
    case transient
    /// The provider answered something the protocol does not allow, or an authorization
    /// response failed the client's checks (`state`, `iss`).
    case protocolViolation = "protocol"
    /// The TLS handshake failed: the certificate was not trusted.
    case tls
    /// The client does not implement the operation.
    case unsupported
    /// The client refused the ID token of a sign-in or refresh (OIDC Core §3.1.3.7, §12.2): a bad
    /// signature, issuer, audience, nonce, expiry, … The message names the rule.
    case idToken = "id_token"
    /// The client refused a userinfo response (OIDC Core §5.3.2): another user's `sub`, or no claims.
    case userinfo
    /// The app's own server refused leg 2 of a third-party sign-in (`invalid_grant`,
    /// `invalid_client`, …): the sign-in with the provider stands; the app's session did not start.
    case exchangeRefused = "exchange_refused"
    /// The library failed in a way it does not document as an outcome: an exception from deep
    /// inside it (an `AttributeError`, a nil dereference, an assertion). A crash, never a refusal.
    case unexpected

    /// Whether an error of this category is the client refusing what it was given (a token, a
    /// response, a grant), as a step that expects "an error" means: a crash is not a refusal, and
    /// neither is an operation the client does not implement.
    public var isRefusal: Bool { self != .unexpected && self != .unsupported }

    /// The one table from an RFC 6749 §5.2 (or §4.1.2.1) error code to what the application must
    /// do about it: sign the user in again for a dead grant or a denial, fix the client's own
    /// credentials for `invalid_client`, otherwise read the code.
    public init(oauthError code: String) {
        self =
            switch code {
            case "invalid_grant", "access_denied": .authorizationRequired
            case "invalid_client": .invalidClient
            default: .oauthError
            }
    }
}
