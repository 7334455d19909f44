import MockProvider

/// What every check is judged against, and the words its report is written in: the run's
/// transcript, the credentials no request or error may show, the requests a filter selects, and
/// how a request or an outcome of the client reads in a report.
struct JudgingContext: Sendable {
    let transcript: Transcript
    /// The client secret the secret checks look for.
    let clientSecret: String
    /// The user's password, which no error may quote.
    let userPassword: String
    /// The client's registration made before the scenario, if the provider holds one: the first
    /// authorization server's (`AuthorizationServerBinding`).
    var preRegisteredClient: ClientCredentials? = nil

    // MARK: Requests

    func entries(matching filter: RequestFilter) -> [JournalEntry] {
        transcript.journal.filter {
            filter.matches(
                $0,
                issuedTokens: transcript.issuedTokens,
                idTokens: transcript.idTokens,
                step: transcript.step(of:)
            )
        }
    }

    /// What time expressions of the checks are evaluated against: the tokens issued and what the
    /// client declared.
    var timeContext: TimeContext {
        TimeContext(
            issuedTokens: transcript.issuedTokens,
            clientRefreshWindow: transcript.profile.refreshWindow,
            clientJWKSRefetchInterval: transcript.profile.jwksRefetchInterval
        )
    }

    // MARK: Outcomes

    var clientReports: [ClientReport] {
        transcript.steps.flatMap { record in
            let outcomes = record.result.clientOutcomes
            let concurrent = if case .clients = record.result { true } else { false }
            return outcomes.enumerated().map { index, outcome in
                let label =
                    "step \(record.number) (\(record.step.action.text))" + (concurrent ? " no. \(index + 1)" : "")
                return ClientReport(record: record, outcome: outcome, label: label)
            }
        }
    }

    /// A request step whose client reported more successes than the resource gave 2xx answers
    /// during the step: a success the client claimed without the call being made (an adapter
    /// that answers for its library, a library that never sends), in words; nil when each
    /// success has its answer.
    func successWithoutAnswer(_ record: StepRecord) -> String? {
        let isRequest: Bool =
            switch record.step.action {
            case .client(.request), .concurrently(_, .request): true
            default: false
            }
        guard isRequest else { return nil }
        let successes = record.result.clientOutcomes.count(where: \.succeeded)
        let answered = transcript.journal.count { entry in
            (record.journalSequences?.contains(entry.sequence) ?? false)
                && (entry.endpoint == .resource || entry.endpoint == .appResource || entry.endpoint == .mcp)
                && (200..<300).contains(entry.response.status)
        }
        guard successes > answered else { return nil }
        return
            "step \(record.number) (\(record.step.action.text)) reported \(successes) success\(successes == 1 ? "" : "es") "
            + "but the resource answered \(answered == 0 ? "none" : "only \(answered)") with 2xx during it"
    }

    /// The credentials a text quotes: issued tokens as whole words, the secret and the password anywhere.
    func credentials(quotedIn text: String) -> [String] {
        var quoted = transcript.issuedTokens.filter { CredentialSearch.isWord($0.value, in: text) }.map {
            $0.label
        }
        if !clientSecret.isEmpty, text.contains(clientSecret) { quoted.append("the client secret") }
        if !userPassword.isEmpty, text.contains(userPassword) { quoted.append("the user's password") }
        return quoted
    }

    // MARK: Wording

    /// "at-2 (access_token#2)", or the raw value when the provider never issued it.
    func name(ofToken value: String) -> String {
        guard let token = transcript.issuedToken(withValue: value) else {
            return "\(value) (not issued by the provider)"
        }
        return "\(value) (\(token.label))"
    }

    func describe(_ entry: JournalEntry) -> String {
        "#\(entry.sequence) t=\(TimelineText.instant(entry.at))"
    }

    func describe(_ outcome: ClientOutcome) -> String {
        switch outcome {
        case .success(let status, _):
            return "succeeded with HTTP \(status)"
        case .failure(let failure):
            let code = failure.oauthError.map { " (\($0))" } ?? ""
            return "failed: \(failure.category.rawValue)\(code): \(failure.message)"
        }
    }

    /// e.g. "step 2 (request GET /resource) failed: transient: …".
    func describe(_ report: ClientReport) -> String {
        "\(report.label) \(describe(report.outcome))"
    }

    func listing(_ entries: [JournalEntry]) -> String {
        guard !entries.isEmpty else { return "" }
        let shown = entries.prefix(8).map(describe).joined(separator: ", ")
        return " (\(shown)\(entries.count > 8 ? ", …" : ""))"
    }
}
