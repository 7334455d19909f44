import Foundation

/// Serve the authorization request normally, then alter the redirect back to the client
/// (RFC 6749 §4.1.2, RFC 9207): its `state` and `iss`, or an error in place of the code.
public struct AuthorizationResponseAlteration: ProviderMisbehaviour {
    public enum Change: Sendable, Equatable {
        case omit
        case replace(String)
        /// The value from the previous authorization request: a replayed `state`.
        case previous
        /// The correct value spelled another way that a normalizing comparison takes as the same
        /// (RFC 3986 §6.2.2–6.2.3), where RFC 9207 §2.4 compares `iss` as a simple string.
        case respelled(Respelling)
    }

    public enum Respelling: Sendable, Equatable {
        case trailingSlash
        case upperCaseScheme

        func apply(to value: String) -> String {
            switch self {
            case .trailingSlash: value + "/"
            case .upperCaseScheme:
                value.firstIndex(of: ":").map { value[..<$0].uppercased() + value[$0...] } ?? value
            }
        }
    }

    public var state: Change?
    public var issuer: Change?
    /// Answer with this error (e.g. `access_denied`) instead of a code.
    public var error: String?

    public init(state: Change? = nil, issuer: Change? = nil, error: String? = nil) {
        self.state = state
        self.issuer = issuer
        self.error = error
    }

    public func answer(_ context: MisbehaviourContext) -> ProviderResponse {
        let previousState = Self.previousState(in: context.journal)
        return edit(context.correctAnswer(), previousState: previousState)
    }

    /// The `state` of the latest authorization request already journaled, for replaying it.
    private static func previousState(in journal: Journal) -> String? {
        journal.entries.last { $0.endpoint == .authorize }?.request.queryItems.first { $0.name == "state" }?.value
    }

    /// Alters the 302 that ends an authorization request; any other answer stays as it was.
    private func edit(_ response: ProviderResponse, previousState: String?) -> ProviderResponse {
        guard response.status == 302, let location = response.header("Location"),
            var url = URLComponents(string: location)
        else {
            return response
        }
        var items = url.queryItems ?? []
        if let error {
            // RFC 6749 §4.1.2.1: an error redirect carries no code.
            items.removeAll { $0.name == "code" }
            items.insert(URLQueryItem(name: "error", value: error), at: 0)
        }
        Self.apply(state, to: "state", in: &items, previousState: previousState)
        Self.apply(issuer, to: "iss", in: &items, previousState: previousState)
        url.queryItems = items
        var edited = response
        edited.setHeader("Location", to: url.string ?? location)
        return edited
    }

    private static func apply(
        _ change: Change?,
        to name: String,
        in items: inout [URLQueryItem],
        previousState: String?
    ) {
        guard let change else { return }
        let replacement: String? =
            switch change {
            case .omit: nil
            case .replace(let value): value
            case .previous: previousState
            case .respelled(let respelling): items.first { $0.name == name }?.value.map(respelling.apply)
            }
        items.removeAll { $0.name == name }
        if let replacement { items.append(URLQueryItem(name: name, value: replacement)) }
    }
}

extension RuleAction {
    public static func alterAuthorizationResponse(_ alteration: AuthorizationResponseAlteration) -> RuleAction {
        RuleAction(alteration)
    }
}
