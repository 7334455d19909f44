import MockProvider

/// The checks of the run as a whole, judged in every scenario beside the checks its file states:
/// a client misbehaving next to the behaviour under test must not pass unnoticed. Each has its own
/// level and source; a scenario whose own checks pass fails on an invariant that does not, and the
/// report names the invariant.
extension ExpectationEvaluator {
    /// The invariants, each judged once: a scenario that states the same check itself keeps its own.
    public func invariants(for scenario: Scenario) -> [CheckResult] {
        var checks = [passwordDiscardedOnceTokenObtained(), frontChannelCarriesNoCredentials()]
        if !scenario.expectations.contains(.errorsRevealNoCredentials) {
            checks.append(check(.errorsRevealNoCredentials).at(.should))
        }
        return checks.map {
            var invariant = $0
            invariant.kind = "invariant"
            invariant.statement = "invariant: " + invariant.statement
            return invariant
        }
    }

    /// RFC 6749 §4.3.1: "The client MUST discard the credentials once an access token has been
    /// obtained." A password grant after the client held tokens is one no `login: password` step
    /// asked for: the client kept the user's password and signed in again by itself. A retry within
    /// the login that asked for it, or a login before any token arrived intact, is not.
    func passwordDiscardedOnceTokenObtained() -> CheckResult {
        var obtainedAt: JournalEntry?
        var offending: [JournalEntry] = []
        for entry in transcript.journal where entry.endpoint == .token {
            if entry.grant == .password, obtainedAt != nil, !isAskedForPasswordLogin(entry),
                !entry.request.madeByTheHarness
            {
                offending.append(entry)
            }
            if obtainedAt == nil, Self.deliveredTokens(entry) { obtainedAt = entry }
        }
        return CheckResult(
            kind: "invariant",
            statement: "the user's password is used only by a login step, never again once tokens were obtained",
            passed: offending.isEmpty,
            level: .must,
            expected:
                "no password grant outside a login: password step after \(obtainedAt.map(context.describe) ?? "the first tokens")",
            observed: offending.isEmpty
                ? "none"
                : "\(offending.count) password grant\(offending.count == 1 ? "" : "s") no step asked for"
                    + context.listing(offending)
                    + stepNames(of: offending),
            evidence: offending.map(\.sequence)
        )
    }

    /// RFC 6749 §2.3.1 (the client secret "MUST NOT be included in the request URI"), RFC 6750
    /// §2.3 and RFC 9700 §4.3.2 (tokens in URIs end up in logs and Referer headers), RFC 7636 §4.3
    /// (the verifier never leaves the client before the token request): what the browser is sent to
    /// holds none of them, nor the user's password.
    func frontChannelCarriesNoCredentials() -> CheckResult {
        let authorizations = transcript.journal.filter { $0.endpoint == .authorize }
        let findings: [(JournalEntry, String)] = authorizations.compactMap { entry in
            var found: [String] = []
            let query = entry.request.queryItems
            if !clientSecret.isEmpty, query.contains(where: { $0.value.contains(clientSecret) }) {
                found.append("the client secret")
            }
            if !userPassword.isEmpty, query.contains(where: { $0.value.contains(userPassword) }) {
                found.append("the user's password")
            }
            // Whole words only: a short token value (`at-1`) may stand inside a random `state`.
            found += transcript.issuedTokens.filter { token in
                query.contains { CredentialSearch.isWord(token.value, in: $0.value) }
            }.map(\.label)
            found += query.filter { ["client_secret", "password", "code_verifier", "refresh_token"].contains($0.name) }
                .map { "parameter \($0.name)" }
            return found.isEmpty ? nil : (entry, found.joined(separator: ", "))
        }
        return CheckResult(
            kind: "invariant",
            statement: "no authorization URL carries the client secret, a token, the password or the PKCE verifier",
            passed: findings.isEmpty,
            level: .must,
            expected: "none in any of the \(authorizations.count) authorization requests",
            observed: findings.isEmpty
                ? "none" : findings.prefix(4).map { "\(context.describe($0.0)): \($0.1)" }.joined(separator: "; "),
            evidence: findings.map(\.0.sequence)
        )
    }

    /// Whether a `login: password` step (alone or concurrently) made this request, or a sign-in
    /// the client's own way that it made with the password grant.
    private func isAskedForPasswordLogin(_ entry: JournalEntry) -> Bool {
        transcript.steps.contains { record in
            guard let range = record.journalSequences, range.contains(entry.sequence) else { return false }
            switch record.step.action {
            case .client(.login(.password)), .concurrently(_, .login(.password)): return true
            default: return record.signedInBy == .password
            }
        }
    }

    /// A token response the client could read: a 200 whose JSON holds an access token.
    private static func deliveredTokens(_ entry: JournalEntry) -> Bool {
        guard entry.response.status == 200, entry.delivery.carriesTheAnswer,
            let token = JSONValue.parse(entry.response.body)?["access_token"]?.stringValue
        else { return false }
        return !token.isEmpty
    }

    /// " (during step 3 (request GET /resource))": the steps the requests were made in.
    private func stepNames(of entries: [JournalEntry]) -> String {
        let steps = transcript.steps.filter { record in
            entries.contains { record.journalSequences?.contains($0.sequence) ?? false }
        }
        guard !steps.isEmpty else { return "" }
        return " during " + steps.map { "step \($0.number) (\($0.step.action.text))" }.joined(separator: ", ")
    }
}
