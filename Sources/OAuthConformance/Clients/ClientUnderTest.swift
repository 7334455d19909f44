import Foundation
import MockProvider

/// A client being judged, for one scenario: a fresh instance per scenario, so no state leaks
/// between scenarios. Implement it to test a Swift client in process.
public protocol ClientUnderTest: Sendable {
    /// Obtains tokens with the grant.
    func login(_ grant: GrantType) async -> ClientOutcome
    /// Calls the protected resource the way the application would, letting the client attach,
    /// refresh and replay tokens as it sees fit.
    func request(method: String, url: String) async -> ClientOutcome
    /// Releases connections and other resources.
    func shutdown() async
}

/// Makes a client under test for each scenario and says what the client declares about itself.
public protocol ClientFactory: Sendable {
    var profile: ClientProfile { get }
    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest
}

/// What a client needs to talk to the provider of one scenario run.
public struct ClientEnvironment: Sendable {
    public var tokenEndpointURL: String
    public var resourceBaseURL: String
    public var client: ClientCredentials
    public var user: UserCredentials
    /// The virtual clock; an in-process client reads its time here.
    public var clock: VirtualClock

    public init(tokenEndpointURL: String, resourceBaseURL: String, client: ClientCredentials, user: UserCredentials, clock: VirtualClock) {
        self.tokenEndpointURL = tokenEndpointURL
        self.resourceBaseURL = resourceBaseURL
        self.client = client
        self.user = user
        self.clock = clock
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
    /// The provider answered something the protocol does not allow.
    case protocolViolation = "protocol"
}
