import Synchronization

/// Pushed authorization requests (RFC 9126): how the provider takes them and for how long.
public struct PushedAuthorizationPolicy: Sendable, Equatable {
    /// `require_pushed_authorization_requests` (RFC 9126 §5): an authorization request that does
    /// not come by `request_uri` gets an error page.
    public var required: Bool
    /// How long a `request_uri` may be used (RFC 9126 §2.2 `expires_in`).
    public var requestURILifetime: Duration

    public init(required: Bool = true, requestURILifetime: Duration = .seconds(60)) {
        self.required = required
        self.requestURILifetime = requestURILifetime
    }
}

/// The pushed requests not yet used: each `request_uri` is good once, before it expires
/// (RFC 9126 §4: the authorization server "MUST" refuse an expired one, and treats it as one-time).
/// Bounded, as what clients push must not grow the provider without limit: past `capacity` pushes
/// or `byteBudget` bytes of parameters the oldest are forgotten, and so is a push that expired a
/// lifetime ago (until then, using it is told "expired").
final class PushedAuthorizationRequests: Sendable {
    static let defaultCapacity = 1_000
    /// 16 MiB: sixteen pushes at the largest body the server takes.
    static let defaultByteBudget = 16 << 20

    private struct Pushed {
        var uri: String
        var parameters: [String: String]
        var expiresAt: Duration
        var lifetime: Duration
    }

    private let state: Mutex<(pending: BoundedQueue<Pushed>, issued: Int)>

    init(capacity: Int = defaultCapacity, byteBudget: Int = defaultByteBudget) {
        state = Mutex((BoundedQueue(capacity: capacity, byteBudget: byteBudget), 0))
    }

    func push(_ parameters: [String: String], at now: Duration, lifetime: Duration) -> String {
        state.withLock { state in
            state.issued += 1
            let uri = "urn:ietf:params:oauth:request_uri:par-\(state.issued)"
            state.pending.removeOldest { $0.expiresAt + $0.lifetime <= now }
            let bytes = parameters.reduce(uri.utf8.count) { $0 + $1.key.utf8.count + $1.value.utf8.count }
            state.pending.append(
                Pushed(uri: uri, parameters: parameters, expiresAt: now + lifetime, lifetime: lifetime),
                bytes: bytes
            )
            return uri
        }
    }

    /// The pushed parameters, consumed; or why the `request_uri` is no good.
    func redeem(_ uri: String, at now: Duration) -> Result<[String: String], PushedRequestProblem> {
        state.withLock { state in
            guard let index = state.pending.lastIndex(where: { $0.uri == uri }) else {
                return .failure(.unknownOrUsed)
            }
            let pushed = state.pending.remove(at: index)
            guard now < pushed.expiresAt else { return .failure(.expired) }
            return .success(pushed.parameters)
        }
    }
}

enum PushedRequestProblem: Error {
    case unknownOrUsed
    case expired

    var reason: String {
        switch self {
        case .unknownOrUsed: "request_uri is unknown, was used already (RFC 9126 §4: one use) or expired long ago"
        case .expired: "request_uri has expired (RFC 9126 §2.2)"
        }
    }
}

/// RFC 9126 §2: the pushed authorization request endpoint. The client authenticates as at the
/// token endpoint and posts the authorization request's parameters; the answer is 201 with a
/// `request_uri` for the authorization endpoint and its `expires_in`.
struct PushedAuthorizationEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let requests: PushedAuthorizationRequests
    let policy: PushedAuthorizationPolicy

    func serve(_ request: ProviderRequest, at now: Duration) -> ProviderResponse {
        if let refusal = authenticator.refusal(for: request) { return refusal }
        let parameters = Dictionary(
            request.formFields.map { ($0.name, $0.value) },
            uniquingKeysWith: { first, _ in first }
        ).filter { !["client_secret", "client_assertion", "client_assertion_type"].contains($0.key) }
        guard parameters["request_uri"] == nil else {
            return .oauthError(
                ScriptedOAuthError(
                    code: "invalid_request",
                    description: "request_uri is not allowed here (RFC 9126 §2.1)"
                )
            )
        }
        guard parameters["response_type"] != nil else {
            return .oauthError(ScriptedOAuthError(code: "invalid_request", description: "response_type is missing"))
        }
        let uri = requests.push(parameters, at: now, lifetime: policy.requestURILifetime)
        return .json(
            201,
            sortedMembers: [
                ("expires_in", .integer(Int(policy.requestURILifetime.seconds.rounded()))),
                ("request_uri", .string(uri)),
            ]
        )
    }
}
