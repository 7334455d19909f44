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
    /// For each filter, its first matching request exists, and these first matches arrived in
    /// the listed order (strictly increasing journal sequence).
    case order([RequestFilter])
    /// No request matches the filter (and, when `carrying` is given, carries that).
    case never(RequestFilter, carrying: ForbiddenCarriage? = nil)

    /// What kind of check this is, for report grouping (`failure type` in JUnit).
    public var kind: String {
        switch self {
        case .everyStepSucceeds: "outcome"
        case .count: "count"
        case .carries: "carries"
        case .firstArrives: "timing"
        case .order: "order"
        case .never: "never"
        }
    }

    /// The expectation as a sentence, as reports and `conformance explain` state it.
    public var statement: String {
        switch self {
        case .everyStepSucceeds:
            "every step succeeds"
        case .count(let filter, let bound):
            "number of \(filter) is \(bound)"
        case .carries(let filter, let call, let carried):
            "\(filter.described(plural: false, number: call)) carries \(carried.token)"
        case .firstArrives(let filter, let from, let before):
            "the first \(filter.described(plural: false)) arrives in [\(from), \(before))"
        case .order(let filters):
            "in this order: " + filters.map { "the first \($0.described(plural: false))" }.joined(separator: ", then ")
        case .never(let filter, let carrying):
            (filter == RequestFilter() ? "no request" : "no \(filter)") + (carrying.map { " \($0.phrase)" } ?? "")
        }
    }
}

/// What a request must never carry, in `never: { carries: … }`.
public enum ForbiddenCarriage: String, Sendable, Hashable, CaseIterable {
    /// An access token that had expired when the request arrived, as its bearer credential.
    case expiredAccessToken = "expired_access_token"
    /// Any refresh token the provider issued, anywhere in the request: a header, the query, the body.
    case refreshToken = "refresh_token"
    /// An access token in the query string: an `access_token` parameter, or any issued access
    /// token as a query value (RFC 6750 §2.3, RFC 9700 §4.3.2).
    case accessTokenInQuery = "access_token_in_query"
    /// The client's secret, anywhere: a header (HTTP Basic decoded), the query, the body. For the
    /// resource server, which has no business seeing it (RFC 6749 §10.4 / §2.3.1).
    case clientSecret = "client_secret"
    /// The client's secret in the query string, where logs keep it (RFC 6749 §2.3.1).
    case clientSecretInQuery = "client_secret_in_query"

    /// e.g. "carrying an expired access token".
    public var phrase: String {
        switch self {
        case .expiredAccessToken: "carrying an expired access token"
        case .refreshToken: "carrying a refresh token"
        case .accessTokenInQuery: "carrying an access token in the query string"
        case .clientSecret: "carrying the client secret"
        case .clientSecretInQuery: "carrying the client secret in the query string"
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
