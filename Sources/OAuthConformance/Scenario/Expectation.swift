import MockProvider

/// A statement about the run that a conforming client makes true. Each becomes one check.
public enum Expectation: Sendable, Equatable {
    /// Every client step ends in success (a 2xx answer for requests).
    case everyStepSucceeds
    /// The number of journaled requests matching the filter.
    case count(RequestFilter, CountBound)
    /// The `call`-th request matching the filter carries this token.
    case carries(RequestFilter, call: Int, token: CarriedToken)
    /// The first request matching the filter arrives in [from, before) of virtual time.
    case firstArrives(RequestFilter, from: TimeExpression, before: TimeExpression)
    /// No request matches the filter (and, when given, carries an expired access token).
    case never(RequestFilter, carryingExpiredAccessToken: Bool)

    /// What kind of check this is, for report grouping (`failure type` in JUnit).
    public var kind: String {
        switch self {
        case .everyStepSucceeds: "outcome"
        case .count: "count"
        case .carries: "carries"
        case .firstArrives: "timing"
        case .never: "never"
        }
    }
}

/// Selects journaled requests. A field left `nil` matches anything.
public struct RequestFilter: Sendable, Equatable, CustomStringConvertible {
    public var endpoint: Endpoint?
    public var grant: GrantType?
    public var status: Int?

    public init(endpoint: Endpoint? = nil, grant: GrantType? = nil, status: Int? = nil) {
        self.endpoint = endpoint
        self.grant = grant
        self.status = status
    }

    public func matches(_ entry: JournalEntry) -> Bool {
        (endpoint == nil || entry.endpoint == endpoint)
            && (grant == nil || entry.grant == grant)
            && (status == nil || entry.response.status == status)
    }

    /// e.g. "token requests (grant refresh_token)".
    public var description: String { described(plural: true) }

    /// e.g. "token request (grant refresh_token)"; `number` makes it "token request no. 2 (…)".
    public func described(plural: Bool, number: Int? = nil) -> String {
        var text = "\(endpoint?.rawValue ?? "any") request\(plural ? "s" : "")"
        if let number { text += " no. \(number)" }
        var qualifiers: [String] = []
        if let grant { qualifiers.append("grant \(grant.rawValue)") }
        if let status { qualifiers.append("status \(status)") }
        if !qualifiers.isEmpty { text += " (\(qualifiers.joined(separator: ", ")))" }
        return text
    }
}

public enum CountBound: Sendable, Equatable, CustomStringConvertible {
    case exactly(Int)
    case atMost(Int)
    case atLeast(Int)

    public func admits(_ count: Int) -> Bool {
        switch self {
        case .exactly(let n): count == n
        case .atMost(let n): count <= n
        case .atLeast(let n): count >= n
        }
    }

    public var description: String {
        switch self {
        case .exactly(let n): "exactly \(n)"
        case .atMost(let n): "at most \(n)"
        case .atLeast(let n): "at least \(n)"
        }
    }
}

/// A token a request must carry: an access token as its bearer credential, a refresh token
/// in its `refresh_token` form field.
public struct CarriedToken: Sendable, Equatable {
    public var token: TokenReference
    public init(_ token: TokenReference) { self.token = token }
}

/// The n-th token of a kind the provider issued, as scenarios write it: `refresh_token#1`.
public struct TokenReference: Sendable, Hashable, CustomStringConvertible {
    public var kind: IssuedToken.Kind
    public var ordinal: Int

    public init(_ kind: IssuedToken.Kind, _ ordinal: Int) {
        self.kind = kind
        self.ordinal = ordinal
    }

    public var description: String { "\(kind.rawValue)#\(ordinal)" }

    public func resolve(in issued: [IssuedToken]) -> IssuedToken? {
        issued.first { $0.kind == kind && $0.ordinal == ordinal }
    }
}
