import MockProvider

/// What must have happened for a scenario's checks to mean anything. A check that no request
/// could break holds for a client that never got there (a resource never called cannot receive
/// the wrong token), so a scenario whose precondition does not hold is inconclusive, never a pass.
extension ExpectationEvaluator {
    /// Every provider rule answered at least one request (the misbehaviour the scenario scripts
    /// reached the client), then each precondition the file states, in its order. Rules that script
    /// the same misbehaviour at different endpoints (the same altered document at each URL a client
    /// may fall back to) are one misbehaviour: it reached the client when one of them answered.
    public func preconditions(for scenario: Scenario) -> [CheckResult] {
        let applied = Set(transcript.journal.compactMap(\.appliedRule))
        let scripted = scenario.provider.rules
        let rules = scripted.enumerated().map { index, rule in
            let twin = scripted.indices.first { other in
                other != index && applied.contains(other) && rule.action != nil
                    && scripted[other].action == rule.action && scripted[other].delivery == rule.delivery
            }
            return CheckResult(
                kind: "precondition",
                statement: "precondition: rule \(index + 1) (\(ScenarioExplanation.ruleText(rule))) answers a request",
                passed: applied.contains(index) || twin != nil,
                expected: "at least one request the rule takes",
                observed: applied.contains(index)
                    ? "it answered one"
                    : twin.map { "rule \($0 + 1), the same misbehaviour elsewhere, answered one" }
                        ?? "no request reached it"
            )
        }
        let stated = scenario.preconditions.map { precondition in
            var judged = check(precondition)
            judged.kind = "precondition"
            judged.statement = "precondition: " + judged.statement
            return judged
        }
        return rules + stated
    }

    /// What the client did instead of reaching the scenario's situation: its steps that did not
    /// succeed, and the requests it made, by endpoint.
    public func whatTheClientDid() -> String {
        let failed = context.clientReports.filter { !$0.outcome.succeeded }.prefix(3).map(context.describe)
        let byEndpoint = Dictionary(grouping: transcript.journal) { $0.endpoint?.rawValue ?? "other" }
        let requests =
            byEndpoint.isEmpty
            ? "it made no request"
            : "its requests: "
                + byEndpoint.keys.sorted().map { "\(byEndpoint[$0]!.count) to \($0)" }.joined(separator: ", ")
        return (failed + [requests]).joined(separator: "; ")
    }

    /// The check a scenario fails when the client never obtained a token one of its steps is
    /// written around (`advance_to: expiry(access_token#2)`): what the client did instead.
    public func obtained(_ token: TokenReference, before step: String) -> CheckResult {
        let issued = transcript.issuedTokens.filter { $0.kind == token.kind }.map {
            $0.label
        }
        let tokenRequests = context.entries(matching: RequestFilter(endpoint: .token))
        var observed = [
            "\(token) was never issued" + (issued.isEmpty ? "" : " (only \(issued.joined(separator: ", ")))")
        ]
        observed.append(
            "token requests: \(tokenRequests.count)"
                + (tokenRequests.isEmpty
                    ? ""
                    : " ("
                        + tokenRequests.prefix(8).map { entry in
                            "\(context.describe(entry)) \(entry.grant?.rawValue ?? "no grant") → \(entry.response.status)"
                        }.joined(separator: ", ") + (tokenRequests.count > 8 ? ", …" : "") + ")")
        )
        observed += context.clientReports.filter { !$0.outcome.succeeded }.map(context.describe)
        return CheckResult(
            kind: "precondition",
            statement: "the client obtains \(token), which \(step) is written around",
            passed: false,
            expected: "\(token) issued by the provider",
            observed: observed.joined(separator: "; "),
            evidence: tokenRequests.map(\.sequence)
        )
    }
}
