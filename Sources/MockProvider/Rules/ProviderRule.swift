/// One departure from correct behaviour: when a request matches, the action replaces or alters
/// what the provider would have answered, and the delivery changes how the answer travels.
public struct ProviderRule: Sendable, Equatable {
    public var match: RequestMatcher
    /// `nil`: the answer is the correct one.
    public var action: RuleAction?
    /// `nil`: the answer is sent at once, whole.
    public var delivery: Delivery?

    public init(match: RequestMatcher, action: RuleAction? = nil, delivery: Delivery? = nil) {
        self.match = match
        self.action = action
        self.delivery = delivery
    }
}
