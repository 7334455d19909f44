import MockProvider

/// The checks of the steps themselves: each step's stated `outcome:`, and where it names an
/// RFC 6749 §5.2 code, whether the client surfaced that code as a field of its own.
extension ExpectationEvaluator {
    /// Each step that states an outcome, judged against every outcome the client reported for it.
    func stepOutcomeChecks() -> [CheckResult] {
        transcript.steps.compactMap { record in
            let outcomes = record.result.clientOutcomes
            guard let expected = record.step.expectedOutcome, !outcomes.isEmpty else { return nil }
            let judged = outcomes.map { judge($0, against: expected) }
            let each = outcomes.count > 1 ? " for each of the \(outcomes.count)" : ""
            let unanswered = context.successWithoutAnswer(record)
            return CheckResult(
                kind: "outcome",
                statement: "step \(record.number) (\(record.step.action.text)) outcome",
                passed: judged.allSatisfy(\.passed) && unanswered == nil,
                expected: judged[0].expected + each,
                observed: Tally.text(outcomes.map(context.describe)) + (unanswered.map { "; \($0)" } ?? ""),
                evidence: record.journalSequences.map(Array.init) ?? []
            )
        }
    }

    private func judge(_ outcome: ClientOutcome, against expected: ExpectedOutcome) -> (passed: Bool, expected: String)
    {
        switch expected {
        case .succeeds:
            return (outcome.succeeded, expected.description)
        case .succeedsOrRefuses:
            if case .failure(let failure) = outcome { return (failure.category.isRefusal, expected.description) }
            return (outcome.succeeded, expected.description)
        case .fails(let category, let oauthError):
            guard case .failure(let failure) = outcome else { return (false, expected.description) }
            let surfacing = oauthError.flatMap { CodeSurfacing(of: $0, in: failure) }
            // A code the application can read only in the message is still surfaced, and the
            // category is the code's when the client gave none of its own; whether the code is a
            // field of its own is a POLICY check of its own (`codeFieldChecks`).
            let reported =
                surfacing == .inMessageOnly && [.oauthError, .unexpected].contains(failure.category)
                ? ErrorCategory(oauthError: oauthError ?? "") : failure.category
            let categoryAdmitted = category.map { reported == $0 } ?? reported.isRefusal
            return (categoryAdmitted && (oauthError == nil || surfacing != nil), expected.description)
        }
    }

    /// POLICY: where a step expects an RFC 6749 §5.2 code and the client surfaced it only as words
    /// of its message, that the application cannot branch on it without parsing text.
    func codeFieldChecks() -> [CheckResult] {
        transcript.steps.compactMap { record in
            guard case .fails(_, let code?)? = record.step.expectedOutcome else { return nil }
            let inTextOnly = record.result.clientOutcomes.filter { outcome in
                guard case .failure(let failure) = outcome else { return false }
                return CodeSurfacing(of: code, in: failure) == .inMessageOnly
            }
            guard !inTextOnly.isEmpty else { return nil }
            return CheckResult(
                kind: "error_code",
                statement:
                    "step \(record.number) (\(record.step.action.text)) surfaces the error code \(code) as a field of its own",
                passed: false,
                level: .policy,
                expected: "the code \(code) readable without parsing the message (RFC 6749 §5.2's error)",
                observed: "only in the message: " + Tally.text(inTextOnly.map(context.describe)),
                evidence: record.journalSequences.map(Array.init) ?? []
            )
        }
    }
}
