import MockProvider

// Constructors that let a Swift test write a scenario as the YAML reads:
//
//     Scenario(id: "refresh/keeps-refresh-token", title: "…", area: .refresh, level: .must,
//              steps: [.login(.password), .advance(.seconds(130)), .request("GET", "/resource")],
//              expectations: [.count(.token(grant: .refreshToken), .exactly(1))])

extension Step {
    public static func login(_ grant: GrantType) -> Step { Step(.login(grant)) }

    public static func request(_ method: String, _ path: String) -> Step { Step(.request(method: method, path: path)) }

    public static let authorize = Step(.client(.authorize))

    /// `sign_in: any`: the user signs in the client's own way.
    public static let signInAsTheClientDoes = Step(.client(.signInAsTheClientDoes))

    public static let restart = Step(.client(.restart))

    public static func revoke(_ target: RevocationTarget) -> Step { Step(.revoke(target)) }

    /// `times` copies of the operation at once: `.concurrently(20, .request(method: "GET", path: "/resource"))`.
    public static func concurrently(_ times: Int, _ operation: ClientOperation) -> Step {
        Step(.concurrently(times: times, operation))
    }

    public static func advance(_ amount: Duration) -> Step { Step(.advance(amount)) }

    public static func advance(to instant: TimeExpression) -> Step { Step(.advanceTo(instant)) }

    public static func wait(_ amount: Duration) -> Step { Step(.wait(amount)) }

    /// The same step, which must end this way: `.login(.password).outcome(.fails(category: nil, oauthError: "invalid_grant"))`.
    public func outcome(_ expected: ExpectedOutcome) -> Step { Step(action, expecting: expected) }
}

extension RequestFilter {
    public static func token(grant: GrantType? = nil, status: Int? = nil) -> RequestFilter {
        RequestFilter(endpoint: .token, grant: grant, status: status)
    }

    public static func resource(status: Int? = nil, origin: Listener? = nil) -> RequestFilter {
        RequestFilter(endpoint: .resource, status: status, origin: origin)
    }

    public static let authorization = RequestFilter(endpoint: .authorize)
}

extension Expectation {
    /// `request: { …, call: N }` with `carries: { access_token: access_token#2 }`.
    public static func request(_ filter: RequestFilter, call: Int, carries token: TokenReference) -> Expectation {
        .carries(filter, call: call, token: CarriedToken(token))
    }
}

extension TokenReference {
    public static func accessToken(_ ordinal: Int) -> TokenReference { TokenReference(.access, ordinal) }
    public static func refreshToken(_ ordinal: Int) -> TokenReference { TokenReference(.refresh, ordinal) }
}

/// `.expiry(.accessToken(1)) - .clientRefreshWindow + .seconds(1)`, as `expiry(access_token#1) - client.refresh_window + 1s`.
extension TimeExpression {
    public static func expiry(_ token: TokenReference) -> TimeExpression {
        TimeExpression([SignedTerm(.expiry(token))])
    }
    public static func issued(_ token: TokenReference) -> TimeExpression {
        TimeExpression([SignedTerm(.issued(token))])
    }
    public static let clientRefreshWindow = TimeExpression([SignedTerm(.clientRefreshWindow)])

    public static func + (lhs: TimeExpression, rhs: TimeExpression) -> TimeExpression {
        TimeExpression(lhs.terms + rhs.terms)
    }

    public static func - (lhs: TimeExpression, rhs: TimeExpression) -> TimeExpression {
        TimeExpression(lhs.terms + rhs.terms.map { SignedTerm(negated: !$0.negated, $0.term) })
    }

    public static func + (lhs: TimeExpression, rhs: Duration) -> TimeExpression {
        lhs + TimeExpression([SignedTerm(.duration(rhs))])
    }

    public static func - (lhs: TimeExpression, rhs: Duration) -> TimeExpression {
        lhs - TimeExpression([SignedTerm(.duration(rhs))])
    }
}
