/// Which requests a rule applies to. Every field left `nil` matches anything.
public struct RequestMatcher: Sendable, Equatable {
    public var endpoint: Endpoint?
    public var grant: GrantType?
    /// Which of the requests matching `endpoint` and `grant` (counted from 1) the rule takes.
    public var calls: CallSelector
    /// Virtual time in which the rule is in force; `nil`: always.
    public var during: Range<Duration>?

    public init(
        endpoint: Endpoint? = nil,
        grant: GrantType? = nil,
        calls: CallSelector = .every,
        during: Range<Duration>? = nil
    ) {
        self.endpoint = endpoint
        self.grant = grant
        self.calls = calls
        self.during = during
    }

    func matches(endpoint: Endpoint?, grant: GrantType?, at now: Duration) -> Bool {
        (self.endpoint == nil || self.endpoint == endpoint) && (self.grant == nil || self.grant == grant)
            && (during?.contains(now) ?? true)
    }
}
