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
    /// The `call`-th request matching the filter has query or form parameters as required.
    case parameters(RequestFilter, call: Int, [ParameterRequirement])
    /// No error the client reported (its message or type) quotes a token the provider issued,
    /// the client secret or the user's password: error texts end up in logs and crash reports.
    case errorsRevealNoCredentials
    /// Every request matching the filter carries the parameter (query or form), and no two carry
    /// the same value: a `nonce` or `state` fresh for each request.
    case distinctValues(RequestFilter, parameter: String)
    /// The user the client holds as signed in, after every step, is the one of its first sign-in:
    /// a client never switches users silently (OIDC Core §12.2, §5.3.2). With `allowingSignOut`,
    /// holding nobody is fine too (a client may end a session it can no longer trust); without it,
    /// the user must stay signed in.
    case sameUser(allowingSignOut: Bool)
    /// Consecutive requests matching the filter, from the `fromCall`-th on, arrive at least this
    /// far apart in virtual time: JWKS refetches no closer than the client declares.
    case spacing(RequestFilter, fromCall: Int, atLeast: TimeExpression)
    /// RFC 8628 §3.5: each device-code poll comes no sooner after the previous one than the
    /// interval of the device authorization response (5 s when it gave none), plus 5 s for every
    /// `slow_down` answered so far.
    case devicePollingPaced
    /// The number of errors the client reported, over every step (`client_errors:`): as a
    /// precondition, that a check of error messages had a message to read.
    case clientErrors(CountBound)

    /// What kind of check this is, for report grouping (`failure type` in JUnit).
    public var kind: String {
        switch self {
        case .everyStepSucceeds: "outcome"
        case .count: "count"
        case .carries: "carries"
        case .firstArrives: "timing"
        case .order: "order"
        case .never: "never"
        case .parameters: "parameters"
        case .errorsRevealNoCredentials: "secrecy"
        case .distinctValues: "freshness"
        case .sameUser: "identity"
        case .spacing: "spacing"
        case .devicePollingPaced: "pacing"
        case .clientErrors: "outcome"
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
        case .parameters(let filter, let call, let requirements):
            "\(filter.described(plural: false, number: call)) has "
                + requirements.map(\.description).joined(separator: ", ")
        case .errorsRevealNoCredentials:
            "no error the client reports quotes a token, the client secret or the user's password"
        case .distinctValues(let filter, let parameter):
            "every \(filter.described(plural: false)) has a \(parameter) of its own"
        case .sameUser(let allowingSignOut):
            allowingSignOut
                ? "the signed-in user is never anyone but the one of the first sign-in"
                : "the user of the first sign-in stays signed in, and nobody else ever is"
        case .spacing(let filter, let fromCall, let atLeast):
            "\(filter) from no. \(fromCall) on arrive at least \(atLeast) apart"
        case .devicePollingPaced:
            "device_code polls come no sooner than the interval, 5 s longer after each slow_down"
        case .clientErrors(let bound):
            "number of errors the client reports is \(bound)"
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
    /// Any credential: an `Authorization` header, any issued token, the client secret, the
    /// user's password, an authorization code or PKCE verifier. For requests that should never
    /// carry one at all, such as those following a redirect to another origin.
    case credentials
    /// A DPoP-bound access token presented as a bearer token: with the `Bearer` scheme, or without
    /// a `DPoP` proof (RFC 9449 §7.1).
    case bearerForDPoPToken = "bearer_for_dpop_token"
    /// A DPoP proof whose `jti` an earlier request's proof already had (RFC 9449 §4.2, §11.1).
    case replayedDPoPProof = "replayed_dpop_proof"
    /// A DPoP proof without the latest nonce the server it goes to has handed out, in an error or
    /// in a success (RFC 9449 §8.2, §9).
    case staleDPoPNonce = "stale_dpop_nonce"

    /// e.g. "carrying an expired access token".
    public var phrase: String {
        switch self {
        case .expiredAccessToken: "carrying an expired access token"
        case .refreshToken: "carrying a refresh token"
        case .accessTokenInQuery: "carrying an access token in the query string"
        case .clientSecret: "carrying the client secret"
        case .clientSecretInQuery: "carrying the client secret in the query string"
        case .credentials: "carrying any credential"
        case .bearerForDPoPToken: "presenting a DPoP-bound access token as a bearer token"
        case .replayedDPoPProof: "carrying a DPoP proof whose jti was used before"
        case .staleDPoPNonce: "carrying a DPoP proof without the server's latest nonce"
        }
    }
}

/// Selects journaled requests. A field left `nil` matches anything.
public struct RequestFilter: Sendable, Equatable, CustomStringConvertible {
    public var endpoint: Endpoint?
    public var grant: GrantType?
    /// The status of an answer that reached the client: one the transport lost has none.
    public var status: Int?
    /// Which of the provider's origins the request reached.
    public var origin: Listener?
    /// The bearer credential the request carried in its `Authorization` header, or that it carried none.
    public var bearer: BearerFilter?
    /// An issued token (or ID token) the request carries anywhere: a header, the query, the body.
    public var presents: PresentedCredential?
    /// Only requests made during these steps (1-based, as the file lists steps; `from_step: 3` is
    /// 3 and every later one, `during_step: 3` step 3 alone): a count of what the client did in
    /// answer to one situation, whatever it took to sign in before it.
    public var steps: ClosedRange<Int>?

    public init(
        endpoint: Endpoint? = nil,
        grant: GrantType? = nil,
        status: Int? = nil,
        origin: Listener? = nil,
        bearer: BearerFilter? = nil,
        presents: PresentedCredential? = nil,
        steps: ClosedRange<Int>? = nil
    ) {
        self.endpoint = endpoint
        self.grant = grant
        self.status = status
        self.origin = origin
        self.bearer = bearer
        self.presents = presents
        self.steps = steps
    }

    /// Whether the request matches; `issuedTokens` and `idTokens` name the tokens `bearer` and
    /// `presents` refer to, and `step(of:)` the number of the step a request was made in.
    public func matches(
        _ entry: JournalEntry,
        issuedTokens: [IssuedToken],
        idTokens: [IssuedIDToken] = [],
        step: (_ sequence: Int) -> Int? = { _ in nil }
    ) -> Bool {
        (steps.map { range in step(entry.sequence).map(range.contains) ?? false } ?? true)
            && (endpoint == nil || entry.endpoint == endpoint)
            && (grant == nil || entry.grant == grant)
            && (status == nil || (entry.response.status == status && entry.delivery.carriesTheAnswer))
            && (origin == nil || entry.request.listener == origin)
            && (bearer?.matches(entry.request.bearerToken, issuedTokens: issuedTokens) ?? true)
            && (presents.map { credential in
                credential.value(issuedTokens: issuedTokens, idTokens: idTokens).map {
                    !CredentialSearch.places(of: $0, in: entry.request).isEmpty
                } ?? false
            } ?? true)
    }

    /// e.g. "token requests (grant refresh_token)".
    public var description: String { described(plural: true) }

    /// e.g. "token request (grant refresh_token)"; `number` makes it "token request no. 2 (…)".
    public func described(plural: Bool, number: Int? = nil) -> String {
        var text = (endpoint.map { "\($0.rawValue) " } ?? "") + "request\(plural ? "s" : "")"
        if let number { text += " no. \(number)" }
        var qualifiers: [String] = []
        if let grant { qualifiers.append("grant \(grant.scenarioName)") }
        if let status { qualifiers.append("status \(status)") }
        if let origin { qualifiers.append("at the \(origin == .otherOrigin ? "other" : "primary") origin") }
        if let bearer { qualifiers.append(bearer.description) }
        if let presents { qualifiers.append("presenting \(presents)") }
        if let steps {
            qualifiers.append(
                steps.count == 1
                    ? "during step \(steps.lowerBound)"
                    : steps.upperBound == .max ? "from step \(steps.lowerBound) on" : "during steps \(steps)"
            )
        }
        if !qualifiers.isEmpty { text += " (\(qualifiers.joined(separator: ", ")))" }
        return text
    }
}

/// `presents:` in a request filter: a token the provider or the app server issued
/// (`access_token#2`, `app_refresh_token#1`), or an ID token (`id_token#1`).
public enum PresentedCredential: Sendable, Equatable, CustomStringConvertible {
    case token(TokenReference)
    case idToken(ordinal: Int)

    /// `id_token#N`, or whatever `TokenReference.parse` reads.
    public static func parse(_ text: String) -> PresentedCredential? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("id_token#") {
            let digits = trimmed.dropFirst("id_token#".count)
            guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let ordinal = Int(digits), ordinal >= 1 else {
                return nil
            }
            return .idToken(ordinal: ordinal)
        }
        return TokenReference.parse(trimmed).map(PresentedCredential.token)
    }

    /// The value as issued; `nil` when no such token was issued.
    func value(issuedTokens: [IssuedToken], idTokens: [IssuedIDToken]) -> String? {
        switch self {
        case .token(let reference): reference.resolve(in: issuedTokens)?.value
        case .idToken(let ordinal): idTokens.first { $0.ordinal == ordinal }?.value
        }
    }

    public var description: String {
        switch self {
        case .token(let reference): reference.description
        case .idToken(let ordinal): "id_token#\(ordinal)"
        }
    }
}

/// `bearer:` in a request filter: which access token a request presented as its bearer credential.
public enum BearerFilter: Sendable, Equatable, CustomStringConvertible {
    /// `Authorization: Bearer` with this issued access token.
    case token(TokenReference)
    /// No bearer token at all (or an empty one): the request went out unauthenticated.
    case none

    func matches(_ presented: String?, issuedTokens: [IssuedToken]) -> Bool {
        switch self {
        case .none: presented?.isEmpty ?? true
        case .token(let reference): presented != nil && presented == reference.resolve(in: issuedTokens)?.value
        }
    }

    /// e.g. "with bearer access_token#1", "without a bearer token".
    public var description: String {
        switch self {
        case .none: "without a bearer token"
        case .token(let reference): "with bearer \(reference)"
        }
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

/// The n-th token of a kind the provider (or the app server) issued, as scenarios write it:
/// `refresh_token#1`, `app_access_token#2`.
public struct TokenReference: Sendable, Hashable, CustomStringConvertible {
    public var kind: IssuedToken.Kind
    public var ordinal: Int
    public var server: IssuedToken.Server

    public init(_ kind: IssuedToken.Kind, _ ordinal: Int, server: IssuedToken.Server = .provider) {
        self.kind = kind
        self.ordinal = ordinal
        self.server = server
    }

    public init(_ token: IssuedToken) {
        self.init(token.kind, token.ordinal, server: token.server)
    }

    public var description: String { IssuedToken.labelPrefix(kind, server) + String(ordinal) }

    public func resolve(in issued: [IssuedToken]) -> IssuedToken? {
        issued.first { $0.kind == kind && $0.ordinal == ordinal && $0.server == server }
    }
}

/// What one parameter of a request (its query, or its form body) must be.
public struct ParameterRequirement: Sendable, Equatable, CustomStringConvertible {
    public enum Condition: Sendable, Equatable {
        case equals(String)
        case present
        case absent
        /// Present, with at least this many characters.
        case minimumLength(Int)
        /// A space-separated list (as `scope` is, RFC 6749 §3.3) that holds this word.
        case includes(String)
    }

    public var name: String
    public var condition: Condition

    public init(_ name: String, _ condition: Condition) {
        self.name = name
        self.condition = condition
    }

    public func admits(_ value: String?) -> Bool {
        switch condition {
        case .equals(let expected): value == expected
        case .present: value.map { !$0.isEmpty } ?? false
        case .absent: value == nil
        case .minimumLength(let length): (value?.count ?? 0) >= length
        case .includes(let word): value?.split(separator: " ").contains { $0 == word } ?? false
        }
    }

    /// e.g. "code_challenge_method = S256", "state of at least 22 characters".
    public var description: String {
        switch condition {
        case .equals(let expected): "\(name) = \(expected)"
        case .present: "\(name) present"
        case .absent: "no \(name)"
        case .minimumLength(let length): "\(name) of at least \(length) characters"
        case .includes(let word): "\(name) including \(word)"
        }
    }
}
