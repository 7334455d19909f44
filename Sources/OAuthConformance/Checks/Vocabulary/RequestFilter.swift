import MockProvider

/// Selects journaled requests. A field left `nil` matches anything.
public struct RequestFilter: Sendable, Equatable, CustomStringConvertible {
    public var endpoint: Endpoint?
    public var grant: GrantType?
    /// The request's path, without its query: one URL of an endpoint that answers at several (the
    /// metadata endpoints, for an issuer with a path).
    public var path: String?
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
        path: String? = nil,
        status: Int? = nil,
        origin: Listener? = nil,
        bearer: BearerFilter? = nil,
        presents: PresentedCredential? = nil,
        steps: ClosedRange<Int>? = nil
    ) {
        self.endpoint = endpoint
        self.grant = grant
        self.path = path
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
            && (path == nil || entry.request.path == path)
            && (status == nil || (entry.response.status == status && entry.delivery.carriesTheAnswer))
            && (origin == nil || entry.request.listener == origin)
            && (bearer?.matches(entry.request.bearerToken, issuedTokens: issuedTokens) ?? true)
            && (presents.map { credential in
                credential.value(issuedTokens: issuedTokens, idTokens: idTokens).map {
                    !CredentialSearch.places(of: $0, in: entry.request).isEmpty
                } ?? false
            } ?? true)
    }

    /// Why the number of requests the filter takes would depend on how the client signed in, when
    /// the sign-in is the client's (`sign_in: any` at the steps `signInSteps`), or `nil` when it does
    /// not. The methods' requests differ on every endpoint but the token endpoint, where each makes
    /// one: the one that ends it, or for saved tokens the earlier sign-in the harness sends for the
    /// application. So a count or a numbered request must leave the sign-in out
    /// (by its endpoint, grant, origin or steps) everywhere else, and name no grant only some
    /// clients sign in with.
    func signInDependence(signInSteps: [Int]) -> String? {
        guard let signInStep = signInSteps.first(where: { steps?.contains($0) ?? true }) else { return nil }
        if origin == .otherOrigin { return nil }
        if let grant { return SignInMethod.problem(naming: grant, signInStep: signInStep) }
        if let endpoint, !SignInMethod.endpointsOfSomeSignIn.contains(endpoint) { return nil }
        return
            "takes the requests step \(signInStep) (sign_in: any) makes \(endpoint.map { "at the \($0.rawValue) endpoint" } ?? "anywhere"), whose number depends on how the client signs in; name an endpoint the sign-in does not call (resource, token) or leave the sign-in out (from_step: \(signInStep + 1))"
    }

    /// e.g. "token requests (grant refresh_token)".
    public var description: String { described(plural: true) }

    /// e.g. "token request (grant refresh_token)"; `number` makes it "token request no. 2 (…)".
    public func described(plural: Bool, number: Int? = nil) -> String {
        var text = (endpoint.map { "\($0.rawValue) " } ?? "") + "request\(plural ? "s" : "")"
        if let number { text += " no. \(number)" }
        var qualifiers: [String] = []
        if let grant { qualifiers.append("grant \(grant.scenarioName)") }
        if let path { qualifiers.append("at \(path)") }
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
