/// Which requests a rule applies to. Every field left `nil` matches anything.
public struct RequestMatcher: Sendable, Equatable {
    public var endpoint: Endpoint?
    public var grant: GrantType?
    /// The request's path, without its query: one of the URLs an endpoint answers at (the
    /// metadata endpoints take several), e.g. `/.well-known/openid-configuration/tenant1`.
    public var path: String?
    /// Which of the requests matching `endpoint` and `grant` (counted from 1) the rule takes.
    public var calls: CallSelector
    /// Virtual time in which the rule is in force; `nil`: always.
    public var during: Range<Duration>?

    public init(
        endpoint: Endpoint? = nil,
        grant: GrantType? = nil,
        path: String? = nil,
        calls: CallSelector = .every,
        during: Range<Duration>? = nil
    ) {
        self.endpoint = endpoint
        self.grant = grant
        self.path = path
        self.calls = calls
        self.during = during
    }

    func matches(endpoint: Endpoint?, grant: GrantType?, path: String, at now: Duration) -> Bool {
        (self.endpoint == nil || self.endpoint == endpoint) && (self.grant == nil || self.grant == grant)
            && (self.path == nil || self.path == path)
            && (during?.contains(now) ?? true)
    }
}
