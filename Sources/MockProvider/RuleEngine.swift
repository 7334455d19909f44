import Synchronization

/// Decides which rule, if any, takes a request. Each rule counts the requests that match its
/// endpoint and grant, so `call: 2` means "the second refresh", whatever else happened between.
final class RuleEngine: Sendable {
    struct Decision {
        let ruleIndex: Int
        let action: RuleAction
    }

    private let rules: [ProviderRule]
    private let matchCounts: Mutex<[Int]>

    init(rules: [ProviderRule]) {
        self.rules = rules
        self.matchCounts = Mutex(Array(repeating: 0, count: rules.count))
    }

    /// Counts the request against every rule it matches and returns the first rule whose call
    /// selector takes it.
    func decide(endpoint: Endpoint?, grant: GrantType?) -> Decision? {
        matchCounts.withLock { counts in
            var decision: Decision?
            for (index, rule) in rules.enumerated() where rule.match.matches(endpoint: endpoint, grant: grant) {
                counts[index] += 1
                if decision == nil, rule.match.calls.selects(counts[index]) {
                    decision = Decision(ruleIndex: index, action: rule.action)
                }
            }
            return decision
        }
    }
}
