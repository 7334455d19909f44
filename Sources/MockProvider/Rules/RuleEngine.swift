import Synchronization

/// Decides which rule, if any, takes a request. Each rule counts the requests that match its
/// endpoint, grant and time window, so `call: 2` means "the second refresh", whatever else
/// happened between.
final class RuleEngine: Sendable {
    struct Decision: Equatable {
        let ruleIndex: Int
        /// `nil`: answer correctly.
        let action: RuleAction?
        /// `nil`: deliver at once.
        let delivery: Delivery?
    }

    private let rules: [ProviderRule]
    private let matchCounts: Mutex<[Int]>

    init(rules: [ProviderRule]) {
        self.rules = rules
        self.matchCounts = Mutex(Array(repeating: 0, count: rules.count))
    }

    /// Counts the request against every rule it matches and returns the first rule that takes it.
    func decide(endpoint: Endpoint?, grant: GrantType?, path: String, at now: Duration) -> Decision? {
        // A provider without rules, as `conformance serve` usually runs, takes no lock per request.
        guard !rules.isEmpty else { return nil }
        return matchCounts.withLock { counts in
            var decision: Decision?
            for (index, rule) in rules.enumerated()
            where rule.match.matches(endpoint: endpoint, grant: grant, path: path, at: now) {
                counts[index] += 1
                guard decision == nil, rule.match.calls.selects(counts[index]) else { continue }
                if let action = rule.action {
                    // An action may let the call pass on: a sequence past its last step.
                    guard let step = action.action(forCall: counts[index]) else { continue }
                    decision = Decision(ruleIndex: index, action: step, delivery: rule.delivery)
                } else {
                    decision = Decision(ruleIndex: index, action: nil, delivery: rule.delivery)
                }
            }
            return decision
        }
    }
}
