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
    /// Calls the protected resource the way the application would, letting the client attach,
    /// refresh and replay tokens as it sees fit.
    func request(method: String, url: String) async -> ClientOutcome
    /// As if the application were relaunched: everything held in memory is gone, what the client
    /// persisted (in `ClientEnvironment.storageDirectory`, say) is loaded again.
    func restart() async -> ClientOutcome
    /// The tokens the client holds now, as it would use them; `nil` when it holds none.
    func storedTokens() async -> StoredTokens?
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

    public func storedTokens() async -> StoredTokens? { nil }
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
    /// A directory of the client's own for what it persists; it outlives `restart` and is
    /// removed when the scenario ends.
    public var storageDirectory: URL

    public init(
        tokenEndpointURL: String, authorizationEndpointURL: String, resourceBaseURL: String, issuer: String,
        redirectURI: String, client: ClientCredentials, user: UserCredentials, clock: VirtualClock,
        caCertificateFile: String? = nil, storageDirectory: URL
    ) {
        self.tokenEndpointURL = tokenEndpointURL
        self.authorizationEndpointURL = authorizationEndpointURL
        self.resourceBaseURL = resourceBaseURL
        self.issuer = issuer
        self.redirectURI = redirectURI
        self.client = client
        self.user = user
        self.clock = clock
        self.caCertificateFile = caCertificateFile
        self.storageDirectory = storageDirectory
    }
}

/// What a client declares: scenarios take policy values from here instead of hard-coding them.
public struct ClientProfile: Sendable, Equatable {
    public var name: String
    public var version: String
    public var capabilities: Set<Capability>
    /// How long before expiry the client refreshes proactively.
    public var refreshWindow: Duration?

    public init(name: String, version: String, capabilities: Set<Capability>, refreshWindow: Duration?) {
        self.name = name
        self.version = version
        self.capabilities = capabilities
        self.refreshWindow = refreshWindow
    }
}

/// How a client step ended, as the client reports it.
public enum ClientOutcome: Sendable, Equatable {
    /// The operation completed; for a request, with the final HTTP answer the application saw.
    case success(status: Int, body: String)
    case failure(ClientFailure)

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

    public init(_ category: ErrorCategory, oauthError: String? = nil, message: String) {
        self.category = category
        self.oauthError = oauthError
        self.message = message
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
}
