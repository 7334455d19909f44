import MockProvider

/// The judging stage: each expectation of a scenario, and each step's stated outcome, becomes a
/// check with what was expected, what was observed, and the requests that show it.
public struct ExpectationEvaluator: Sendable {
    public let transcript: Transcript

    public init(transcript: Transcript) {
        self.transcript = transcript
    }

    public func evaluate(_ scenario: Scenario) -> [CheckResult] {
        stepOutcomeChecks() + scenario.expectations.map(check)
    }

    public func check(_ expectation: Expectation) -> CheckResult {
        switch expectation {
        case .everyStepSucceeds:
            return everyStepSucceeds()
        case .count(let filter, let bound):
            let matches = entries(matching: filter)
            return CheckResult(
                kind: expectation.kind, statement: "number of \(filter) is \(bound)", passed: bound.admits(matches.count),
                expected: bound.description, observed: "\(matches.count)\(listing(matches))", evidence: matches.map(\.sequence)
            )
        case .carries(let filter, let call, let carried):
            return carries(filter, call: call, carried.token, kind: expectation.kind)
        case .firstArrives(let filter, let from, let before):
            return firstArrives(filter, from: from, before: before, kind: expectation.kind)
        case .never(let filter, let carryingExpired):
            var offending = entries(matching: filter)
            if carryingExpired { offending = offending.filter(carriesExpiredAccessToken) }
            let statement = "no \(filter)" + (carryingExpired ? " carrying an expired access token" : "")
            return CheckResult(
                kind: expectation.kind, statement: statement, passed: offending.isEmpty,
                expected: "none", observed: offending.isEmpty ? "none" : "\(offending.count)\(listing(offending))",
                evidence: offending.map(\.sequence)
            )
        }
    }

    // MARK: Outcomes

    private var clientSteps: [(record: StepRecord, outcome: ClientOutcome)] {
        transcript.steps.compactMap { record in
            if case .client(let outcome) = record.result { return (record, outcome) }
            return nil
        }
    }

    private func everyStepSucceeds() -> CheckResult {
        let failed = clientSteps.filter { !$0.outcome.succeeded }
        let observed = failed.isEmpty
            ? "every step succeeded"
            : failed.map { "step \($0.record.number) (\($0.record.step.action.text)) \(describe($0.outcome))" }.joined(separator: "; ")
        return CheckResult(
            kind: "outcome", statement: "every step succeeds", passed: failed.isEmpty,
            expected: "success (2xx) for every login and request", observed: observed,
            evidence: failed.flatMap { $0.record.journalSequences.map(Array.init) ?? [] }
        )
    }

    private func stepOutcomeChecks() -> [CheckResult] {
        clientSteps.compactMap { record, outcome in
            guard let expected = record.step.expectedOutcome else { return nil }
            let (passed, expectedText) = judge(outcome, against: expected)
            return CheckResult(
                kind: "outcome", statement: "step \(record.number) (\(record.step.action.text)) outcome", passed: passed,
                expected: expectedText, observed: describe(outcome),
                evidence: record.journalSequences.map(Array.init) ?? []
            )
        }
    }

    private func judge(_ outcome: ClientOutcome, against expected: ExpectedOutcome) -> (passed: Bool, expected: String) {
        switch expected {
        case .succeeds:
            return (outcome.succeeded, "success")
        case .fails(let category, let oauthError):
            let text = "an error" + (category.map { " of category \($0.rawValue)" } ?? "") + (oauthError.map { " with error code \($0)" } ?? "")
            guard case .failure(let failure) = outcome else { return (false, text) }
            let passed = (category == nil || failure.category == category) && (oauthError == nil || failure.oauthError == oauthError)
            return (passed, text)
        }
    }

    private func describe(_ outcome: ClientOutcome) -> String {
        switch outcome {
        case .success(let status, _):
            return "succeeded with HTTP \(status)"
        case .failure(let failure):
            let code = failure.oauthError.map { " (\($0))" } ?? ""
            return "failed: \(failure.category.rawValue)\(code): \(failure.message)"
        }
    }

    // MARK: Requests

    private func entries(matching filter: RequestFilter) -> [JournalEntry] {
        transcript.journal.filter(filter.matches)
    }

    private func carries(_ filter: RequestFilter, call: Int, _ reference: TokenReference, kind: String) -> CheckResult {
        let statement = "\(filter.described(plural: false, number: call)) carries \(reference)"
        let matches = entries(matching: filter)
        guard let expectedToken = reference.resolve(in: transcript.issuedTokens) else {
            return CheckResult(kind: kind, statement: statement, passed: false, expected: reference.description, observed: "\(reference) was never issued")
        }
        let expected = "\(reference) (\(expectedToken.value))"
        guard matches.count >= call else {
            return CheckResult(
                kind: kind, statement: statement, passed: false, expected: expected,
                observed: "only \(matches.count) such requests\(listing(matches))", evidence: matches.map(\.sequence)
            )
        }
        let entry = matches[call - 1]
        let presented = reference.kind == .access ? entry.request.bearerToken : entry.request.formField("refresh_token")
        return CheckResult(
            kind: kind, statement: statement, passed: presented == expectedToken.value, expected: expected,
            observed: presented.map(name(ofToken:)).map { "\($0) at \(describe(entry))" } ?? "no \(reference.kind.rawValue) at \(describe(entry))",
            evidence: [entry.sequence]
        )
    }

    private func firstArrives(_ filter: RequestFilter, from: TimeExpression, before: TimeExpression, kind: String) -> CheckResult {
        let statement = "the first \(filter.described(plural: false)) arrives in [\(from), \(before))"
        let context = TimeContext(issuedTokens: transcript.issuedTokens, clientRefreshWindow: transcript.profile.refreshWindow)
        let window: (Duration, Duration)
        switch (from.evaluate(in: context), before.evaluate(in: context)) {
        case (.success(let start), .success(let end)):
            window = (start, end)
        case (.failure(let problem), _), (_, .failure(let problem)):
            return CheckResult(kind: kind, statement: statement, passed: false, expected: "a computable window", observed: problem.message)
        }
        let expected = "t in [\(TimelineText.instant(window.0)), \(TimelineText.instant(window.1)))"
        guard let first = entries(matching: filter).first else {
            return CheckResult(kind: kind, statement: statement, passed: false, expected: expected, observed: "no such request")
        }
        return CheckResult(
            kind: kind, statement: statement, passed: first.at >= window.0 && first.at < window.1,
            expected: expected, observed: describe(first), evidence: [first.sequence]
        )
    }

    private func carriesExpiredAccessToken(_ entry: JournalEntry) -> Bool {
        guard let value = entry.request.bearerToken, let token = transcript.issuedToken(withValue: value) else { return false }
        return token.kind == .access && token.isExpired(at: entry.at)
    }

    // MARK: Wording

    /// "at-2 (access_token#2)", or the raw value when the provider never issued it.
    private func name(ofToken value: String) -> String {
        guard let token = transcript.issuedToken(withValue: value) else { return "\(value) (not issued by the provider)" }
        return "\(value) (\(token.kind.rawValue)#\(token.ordinal))"
    }

    private func describe(_ entry: JournalEntry) -> String {
        "#\(entry.sequence) t=\(TimelineText.instant(entry.at))"
    }

    private func listing(_ entries: [JournalEntry]) -> String {
        guard !entries.isEmpty else { return "" }
        let shown = entries.prefix(8).map(describe).joined(separator: ", ")
        return " (\(shown)\(entries.count > 8 ? ", …" : ""))"
    }
}
