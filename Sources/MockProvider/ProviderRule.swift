/// One departure from correct behaviour: when a request matches, the action replaces or alters
/// what the provider would have answered.
public struct ProviderRule: Sendable, Equatable {
    public var match: RequestMatcher
    public var action: RuleAction

    public init(match: RequestMatcher, action: RuleAction) {
        self.match = match
        self.action = action
    }
}

/// Which requests a rule applies to. Every field left `nil` matches anything.
public struct RequestMatcher: Sendable, Equatable {
    public var endpoint: Endpoint?
    public var grant: GrantType?
    /// Which of the requests matching `endpoint` and `grant` (counted from 1) the rule takes.
    public var calls: CallSelector

    public init(endpoint: Endpoint? = nil, grant: GrantType? = nil, calls: CallSelector = .every) {
        self.endpoint = endpoint
        self.grant = grant
        self.calls = calls
    }

    func matches(endpoint: Endpoint?, grant: GrantType?) -> Bool {
        (self.endpoint == nil || self.endpoint == endpoint) && (self.grant == nil || self.grant == grant)
    }
}

public enum CallSelector: Sendable, Equatable {
    case every
    case nth(Int)
    case range(ClosedRange<Int>)

    func selects(_ callNumber: Int) -> Bool {
        switch self {
        case .every: true
        case .nth(let n): callNumber == n
        case .range(let range): range.contains(callNumber)
        }
    }
}

public enum RuleAction: Sendable, Equatable {
    /// Answer with this response instead of serving the request. No token is issued or checked.
    case respond(ProviderResponse)
    /// Serve the request normally (tokens are issued as usual), then alter the JSON body.
    case alterTokenResponse(TokenResponseAlteration)
    /// Answer with an RFC 6749 §5.2 error body.
    case oauthError(ScriptedOAuthError)
}

/// Member-level changes to a successful token response.
public struct TokenResponseAlteration: Sendable, Equatable {
    /// Members set to these values (added when absent), e.g. `"refresh_token": null`.
    public var set: [String: JSONValue]
    /// Members removed from the body.
    public var omit: Set<String>

    public init(set: [String: JSONValue] = [:], omit: Set<String> = []) {
        self.set = set
        self.omit = omit
    }

    func apply(to body: JSONValue) -> JSONValue {
        guard case .object(var members) = body else { return body }
        for member in omit { members[member] = nil }
        members.merge(set) { _, scripted in scripted }
        return .object(members)
    }
}

public struct ScriptedOAuthError: Sendable, Equatable {
    public var code: String
    public var description: String?
    public var uri: String?
    /// `nil`: the status RFC 6749 §5.2 gives the code.
    public var status: Int?

    public init(code: String, description: String? = nil, uri: String? = nil, status: Int? = nil) {
        self.code = code
        self.description = description
        self.uri = uri
        self.status = status
    }
}
