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
final class PushedAuthorizationRequests: Sendable {
    private struct Pushed {
        var parameters: [String: String]
        var expiresAt: Duration
    }

    private let state = Mutex<(pending: [String: Pushed], issued: Int)>(([:], 0))

    func push(_ parameters: [String: String], expiresAt: Duration) -> String {
        state.withLock { state in
            state.issued += 1
            let uri = "urn:ietf:params:oauth:request_uri:par-\(state.issued)"
            state.pending[uri] = Pushed(parameters: parameters, expiresAt: expiresAt)
            return uri
        }
    }

    /// The pushed parameters, consumed; or why the `request_uri` is no good.
    func redeem(_ uri: String, at now: Duration) -> Result<[String: String], PushedRequestProblem> {
        state.withLock { state in
            guard let pushed = state.pending.removeValue(forKey: uri) else { return .failure(.unknownOrUsed) }
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
        case .unknownOrUsed: "request_uri is unknown or was used already (RFC 9126 §4: one use)"
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
        let uri = requests.push(parameters, expiresAt: now + policy.requestURILifetime)
        return .json(
            201,
            sortedMembers: [
                ("expires_in", .integer(Int(policy.requestURILifetime.seconds.rounded()))),
                ("request_uri", .string(uri)),
            ]
        )
    }
}
