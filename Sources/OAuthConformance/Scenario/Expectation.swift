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
