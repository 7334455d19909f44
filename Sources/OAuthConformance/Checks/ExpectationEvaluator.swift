import MockProvider

/// The judging stage: each expectation of a scenario, and each step's stated outcome, becomes a
/// check with what was expected, what was observed, and the requests that show it.
public struct ExpectationEvaluator: Sendable {
    public let transcript: Transcript
    /// The client secret the secret checks look for; `evaluate` takes it from the scenario.
    public var clientSecret: String
    /// The user's password, which no error may quote; `evaluate` takes it from the scenario.
    public var userPassword: String

    public init(
        transcript: Transcript,
        clientSecret: String = ProviderSettings().client.secret,
        userPassword: String = ProviderSettings().user.password
    ) {
        self.transcript = transcript
        self.clientSecret = clientSecret
        self.userPassword = userPassword
    }

    /// Every check of the scenario, each at its level: a step's stated outcome at the scenario's,
    /// an expectation at its own or the scenario's; an expectation that requires a capability the
    /// client does not declare is left out.
    public func evaluate(_ scenario: Scenario) -> [CheckResult] {
        var judge = self
        judge.clientSecret = scenario.provider.client.secret
        judge.userPassword = scenario.provider.user.password
        let outcomes = judge.stepOutcomeChecks().map { $0.at(scenario.level) } + judge.codeFieldChecks()
        let declared = transcript.profile.capabilities
        let expectations = scenario.expectations.enumerated().compactMap { index, expectation -> CheckResult? in
            guard (scenario.expectationRequirements[index] ?? []).allSatisfy(declared.contains) else { return nil }
            return judge.check(expectation).at(scenario.level(ofExpectationAt: index))
        }
        return outcomes + expectations
    }

    public func check(_ expectation: Expectation) -> CheckResult {
        let statement = expectation.statement
        func result(_ passed: Bool, expected: String, observed: String, evidence: [Int] = []) -> CheckResult {
            CheckResult(
                kind: expectation.kind,
                statement: statement,
                passed: passed,
                expected: expected,
                observed: observed,
                evidence: evidence
            )
        }
        switch expectation {
        case .everyStepSucceeds:
            let failed = clientReports.filter { !$0.outcome.succeeded }
            let unanswered = transcript.steps.compactMap(successWithoutAnswer)
            let observed =
                failed.isEmpty && unanswered.isEmpty
                ? "every step succeeded"
                : (failed.map { "\($0.label) \(describe($0.outcome))" } + unanswered).joined(separator: "; ")
            return result(
                failed.isEmpty && unanswered.isEmpty,
                expected: "success (2xx) for every login and request",
                observed: observed,
                evidence: failed.flatMap { $0.record.journalSequences.map(Array.init) ?? [] }
            )
        case .count(let filter, let bound):
            let matches = entries(matching: filter)
            return result(
                bound.admits(matches.count),
                expected: bound.description,
                observed: "\(matches.count)\(listing(matches))",
                evidence: matches.map(\.sequence)
            )
        case .carries(let filter, let call, let carried):
            return carries(filter, call: call, carried.token, result: result)
        case .firstArrives(let filter, let from, let before):
            return firstArrives(filter, from: from, before: before, result: result)
        case .order(let filters):
            let firsts = filters.map { entries(matching: $0).first }
            let arrived = firsts.compactMap { $0 }
            let inOrder =
                arrived.count == filters.count
                && zip(arrived, arrived.dropFirst()).allSatisfy { $0.sequence < $1.sequence }
            let observed = zip(filters, firsts).map { filter, first in
                "\(filter.described(plural: false)) " + (first.map { "first at \(describe($0))" } ?? "never")
            }
            return result(
                inOrder,
                expected: filters.map { $0.described(plural: false) }.joined(separator: " → "),
                observed: observed.joined(separator: "; "),
                evidence: arrived.map(\.sequence)
            )
        case .parameters(let filter, let call, let requirements):
            return parameters(filter, call: call, requirements, result: result)
        case .errorsRevealNoCredentials:
            let quoting = clientReports.compactMap { report -> String? in
                guard case .failure(let failure) = report.outcome else { return nil }
                let quoted = credentials(quotedIn: failure.message + " " + (failure.errorType ?? ""))
                return quoted.isEmpty ? nil : "\(report.label) quotes \(quoted.joined(separator: ", "))"
            }
            let failures = clientReports.count { !$0.outcome.succeeded }
            return result(
                quoting.isEmpty,
                expected: "no credential in any error message",
                observed: quoting.isEmpty
                    ? "none in the \(failures) error\(failures == 1 ? "" : "s") reported"
                    : quoting.joined(separator: "; ")
            )
        case .distinctValues(let filter, let parameter):
            return distinctValues(filter, parameter: parameter, result: result)
        case .sameUser(let allowingSignOut):
            return sameUser(allowingSignOut: allowingSignOut, result: result)
        case .spacing(let filter, let fromCall, let atLeast):
            return spacing(filter, fromCall: fromCall, atLeast: atLeast, result: result)
        case .devicePollingPaced:
            return devicePollingPaced(result: result)
        case .clientErrors(let bound):
            // Raised errors only: an HTTP answer handed to the application (a 401, say) is no error.
            let errors = clientReports.filter { $0.outcome.failure != nil }
            return result(
                bound.admits(errors.count),
                expected: bound.description,
                observed: "\(errors.count)"
                    + (errors.isEmpty ? "" : " (" + errors.prefix(4).map(\.label).joined(separator: ", ") + ")")
            )
        case .never(let filter, let carrying):
            let offending = entries(matching: filter).compactMap { entry in
                carrying.map { forbidden in sighting(of: forbidden, in: entry).map { (entry, " \($0)") } } ?? (
                    entry, ""
                )
            }
            let observed = offending.prefix(8).map { "\(describe($0.0))\($0.1)" }.joined(separator: ", ")
            return result(
                offending.isEmpty,
                expected: "none",
                observed: offending.isEmpty
                    ? "none" : "\(offending.count) (\(observed)\(offending.count > 8 ? ", …" : ""))",
                evidence: offending.map(\.0.sequence)
            )
        }
    }

    /// The check a scenario fails when the client never obtained a token one of its steps is
    /// written around (`advance_to: expiry(access_token#2)`): what the client did instead.
    public func obtained(_ token: TokenReference, before step: String) -> CheckResult {
        let issued = transcript.issuedTokens.filter { $0.kind == token.kind }.map {
            $0.label
        }
        let tokenRequests = entries(matching: RequestFilter(endpoint: .token))
        var observed = [
            "\(token) was never issued" + (issued.isEmpty ? "" : " (only \(issued.joined(separator: ", ")))")
        ]
        observed.append(
            "token requests: \(tokenRequests.count)"
                + (tokenRequests.isEmpty
                    ? ""
                    : " ("
                        + tokenRequests.prefix(8).map { entry in
                            "\(describe(entry)) \(entry.grant?.rawValue ?? "no grant") → \(entry.response.status)"
                        }.joined(separator: ", ") + (tokenRequests.count > 8 ? ", …" : "") + ")")
        )
        observed += clientReports.filter { !$0.outcome.succeeded }.map { "\($0.label) \(describe($0.outcome))" }
        return CheckResult(
            kind: "precondition",
            statement: "the client obtains \(token), which \(step) is written around",
            passed: false,
            expected: "\(token) issued by the provider",
            observed: observed.joined(separator: "; "),
            evidence: tokenRequests.map(\.sequence)
        )
    }

    // MARK: Outcomes

    /// One outcome the client reported, with the step it belongs to; a `concurrently` step gives several.
    struct ClientReport {
        let record: StepRecord
        let outcome: ClientOutcome
        /// e.g. "step 3 (request GET /resource)", or "step 3 (20 × request GET /resource concurrently) no. 5".
        let label: String
    }

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

    private func stepOutcomeChecks() -> [CheckResult] {
        transcript.steps.compactMap { record in
            let outcomes = record.result.clientOutcomes
            guard let expected = record.step.expectedOutcome, !outcomes.isEmpty else { return nil }
            let judged = outcomes.map { judge($0, against: expected) }
            let each = outcomes.count > 1 ? " for each of the \(outcomes.count)" : ""
            let unanswered = successWithoutAnswer(record)
            return CheckResult(
                kind: "outcome",
                statement: "step \(record.number) (\(record.step.action.text)) outcome",
                passed: judged.allSatisfy(\.passed) && unanswered == nil,
                expected: judged[0].expected + each,
                observed: Tally.text(outcomes.map(describe)) + (unanswered.map { "; \($0)" } ?? ""),
                evidence: record.journalSequences.map(Array.init) ?? []
            )
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
                && (entry.endpoint == .resource || entry.endpoint == .appResource)
                && (200..<300).contains(entry.response.status)
        }
        guard successes > answered else { return nil }
        return
            "step \(record.number) (\(record.step.action.text)) reported \(successes) success\(successes == 1 ? "" : "es") "
            + "but the resource answered \(answered == 0 ? "none" : "only \(answered)") with 2xx during it"
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
                observed: "only in the message: " + Tally.text(inTextOnly.map(describe)),
                evidence: record.journalSequences.map(Array.init) ?? []
            )
        }
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

    /// Builds a check result for the expectation being judged.
    private typealias Judgement = (_ passed: Bool, _ expected: String, _ observed: String, _ evidence: [Int]) ->
        CheckResult

    private func carries(
        _ filter: RequestFilter,
        call: Int,
        _ reference: TokenReference,
        result: Judgement
    ) -> CheckResult {
        let matches = entries(matching: filter)
        guard let expectedToken = reference.resolve(in: transcript.issuedTokens) else {
            return result(false, reference.description, "\(reference) was never issued", [])
        }
        let expected = "\(reference) (\(expectedToken.value))"
        let entry: JournalEntry
        switch match(number: call, of: matches, expected: expected, result: result) {
        case .success(let found): entry = found
        case .failure(let missing): return missing.result
        }
        let presented = reference.kind == .access ? entry.request.bearerToken : entry.request.formField("refresh_token")
        return result(
            presented == expectedToken.value,
            expected,
            presented.map(name(ofToken:)).map { "\($0) at \(describe(entry))" }
                ?? "no \(reference.kind.rawValue) at \(describe(entry))",
            [entry.sequence]
        )
    }

    /// The `call`-th of the matching requests, or the failed check that says there were fewer.
    private func match(
        number call: Int,
        of matches: [JournalEntry],
        expected: String,
        result: Judgement
    ) -> Result<JournalEntry, MissingRequest> {
        guard matches.count >= call else {
            return .failure(
                MissingRequest(
                    result: result(
                        false,
                        expected,
                        "only \(matches.count) such requests\(listing(matches))",
                        matches.map(\.sequence)
                    )
                )
            )
        }
        return .success(matches[call - 1])
    }

    /// The failed check for a request that never came, carried as an error so `match` can return it.
    private struct MissingRequest: Error {
        let result: CheckResult
    }

    private func parameters(
        _ filter: RequestFilter,
        call: Int,
        _ requirements: [ParameterRequirement],
        result: Judgement
    ) -> CheckResult {
        let matches = entries(matching: filter)
        let expected = requirements.map(\.description).joined(separator: ", ")
        let entry: JournalEntry
        switch match(number: call, of: matches, expected: expected, result: result) {
        case .success(let found): entry = found
        case .failure(let missing): return missing.result
        }
        let values = requirements.map { requirement in
            entry.request.queryItems.first { $0.name == requirement.name }?.value
                ?? entry.request.formField(requirement.name)
        }
        let observed = zip(requirements, values).map { requirement, value in
            "\(requirement.name) " + (value.map { "= \($0.isEmpty ? "(empty)" : $0)" } ?? "absent")
        }
        return result(
            zip(requirements, values).allSatisfy { $0.admits($1) },
            expected,
            observed.joined(separator: ", ") + " at \(describe(entry))",
            [entry.sequence]
        )
    }

    private func distinctValues(_ filter: RequestFilter, parameter: String, result: Judgement) -> CheckResult {
        let matches = entries(matching: filter)
        let values = matches.map { entry in
            entry.request.queryItems.first { $0.name == parameter }?.value ?? entry.request.formField(parameter)
        }
        let missing = zip(matches, values).filter { $0.1?.isEmpty ?? true }.map(\.0)
        var seen: [String: JournalEntry] = [:]
        var repeated: [(JournalEntry, JournalEntry)] = []
        for (entry, value) in zip(matches, values) {
            guard let value, !value.isEmpty else { continue }
            if let first = seen[value] { repeated.append((first, entry)) } else { seen[value] = entry }
        }
        var observed: [String] = []
        if matches.count < 2 {
            observed.append("only \(matches.count) such request\(matches.count == 1 ? "" : "s"), too few to compare")
        }
        observed += missing.map { "no \(parameter) at \(describe($0))" }
        observed += repeated.map { "\(describe($0.1)) repeats the \(parameter) of \(describe($0.0))" }
        return result(
            matches.count >= 2 && missing.isEmpty && repeated.isEmpty,
            "a \(parameter) in each, never one twice",
            observed.isEmpty
                ? "\(matches.count) requests, \(matches.count) different values" : observed.joined(separator: "; "),
            matches.map(\.sequence)
        )
    }

    /// Who the client held after each step, against the first identity it reported.
    private func sameUser(allowingSignOut: Bool, result: Judgement) -> CheckResult {
        guard let firstIndex = transcript.steps.firstIndex(where: { $0.identity != nil }),
            let first = transcript.steps[firstIndex].identity
        else {
            return result(false, "a signed-in user after the sign-in", "the client never reported a signed-in user", [])
        }
        let firstRecord = transcript.steps[firstIndex]
        let later = transcript.steps[firstIndex...]
        let departures = later.filter { record in
            guard let identity = record.identity else { return !allowingSignOut }
            return identity != first
        }
        let observed =
            departures.isEmpty
            ? "\(first) after every step from step \(firstRecord.number) on"
                + (allowingSignOut && later.contains { $0.identity == nil } ? " that left someone signed in" : "")
            : departures.map {
                "after step \($0.number) (\($0.step.action.text)): \($0.identity.map(\.description) ?? "nobody")"
            }
            .joined(separator: "; ")
        return result(
            departures.isEmpty,
            "\(first) (from step \(firstRecord.number))"
                + (allowingSignOut ? " or nobody" : ", after every later step"),
            observed,
            departures.flatMap { $0.journalSequences.map(Array.init) ?? [] }
        )
    }

    /// What time expressions of the checks are evaluated against: the tokens issued and what the
    /// client declared.
    private var timeContext: TimeContext {
        TimeContext(
            issuedTokens: transcript.issuedTokens,
            clientRefreshWindow: transcript.profile.refreshWindow,
            clientJWKSRefetchInterval: transcript.profile.jwksRefetchInterval
        )
    }

    /// Consecutive matches from the `fromCall`-th on are at least `atLeast` apart; the first pair
    /// that is closer is what the report shows.
    private func spacing(
        _ filter: RequestFilter,
        fromCall: Int,
        atLeast: TimeExpression,
        result: Judgement
    ) -> CheckResult {
        let gap: Duration
        switch atLeast.evaluate(in: timeContext) {
        case .success(let computed): gap = computed
        case .failure(let problem): return result(false, "a computable spacing", problem.message, [])
        }
        let spaced = Array(entries(matching: filter).dropFirst(fromCall - 1))
        let expected = "at least \(DurationText.format(gap)) between consecutive ones"
        let close = zip(spaced, spaced.dropFirst()).filter { $1.at - $0.at < gap }
        guard let (earlier, later) = close.first else {
            return result(
                true,
                expected,
                "\(spaced.count) from no. \(fromCall) on, none closer",
                spaced.map(\.sequence)
            )
        }
        let apart = DurationText.format(later.at - earlier.at)
        return result(
            false,
            expected,
            "\(describe(earlier)) and \(describe(later)), \(apart) apart"
                + (close.count > 1 ? " (\(close.count) such pairs)" : ""),
            close.flatMap { [$0.sequence, $1.sequence] }
        )
    }

    /// RFC 8628 §3.5, read off the journal: the interval each device authorization response gave
    /// (5 s without one), 5 s more after each `slow_down`, and every poll measured from the one before.
    private func devicePollingPaced(result: Judgement) -> CheckResult {
        var interval = Duration.seconds(5)
        var previous: JournalEntry?
        var polls: [Int] = []
        var early: [String] = []
        for entry in transcript.journal {
            if entry.endpoint == .deviceAuthorization, entry.response.status == 200 {
                if case .integer(let seconds)? = JSONValue.parse(entry.response.body)?["interval"] {
                    interval = .seconds(seconds)
                } else {
                    interval = .seconds(5)
                }
                previous = nil
                continue
            }
            guard entry.endpoint == .token, entry.grant == .deviceCode else { continue }
            polls.append(entry.sequence)
            if let previous, entry.at - previous.at < interval {
                early.append(
                    "\(describe(entry)) came \(DurationText.format(entry.at - previous.at)) after #\(previous.sequence); the interval was \(DurationText.format(interval))"
                )
            }
            if JSONValue.parse(entry.response.body)?["error"]?.stringValue == "slow_down" { interval += .seconds(5) }
            previous = entry
        }
        guard !polls.isEmpty else { return result(false, "device_code polls, paced", "no device_code poll", []) }
        return result(
            early.isEmpty,
            "each poll at least the interval after the one before",
            early.isEmpty ? "\(polls.count) polls, none early" : early.prefix(4).joined(separator: "; "),
            polls
        )
    }

    private func firstArrives(
        _ filter: RequestFilter,
        from: TimeExpression,
        before: TimeExpression,
        result: Judgement
    ) -> CheckResult {
        let window: (Duration, Duration)
        switch (from.evaluate(in: timeContext), before.evaluate(in: timeContext)) {
        case (.success(let start), .success(let end)):
            window = (start, end)
        case (.failure(let problem), _), (_, .failure(let problem)):
            return result(false, "a computable window", problem.message, [])
        }
        let expected = "t in [\(TimelineText.instant(window.0)), \(TimelineText.instant(window.1)))"
        guard let first = entries(matching: filter).first else {
            return result(false, expected, "no such request", [])
        }
        return result(first.at >= window.0 && first.at < window.1, expected, describe(first), [first.sequence])
    }

    /// How the request carries what it must not, in words ("(refresh_token#1 in query parameter refresh_token)"), or nil.
    private func sighting(of forbidden: ForbiddenCarriage, in entry: JournalEntry) -> String? {
        switch forbidden {
        case .expiredAccessToken:
            guard let value = entry.request.bearerToken, let token = transcript.issuedToken(withValue: value),
                token.kind == .access, token.isExpired(at: entry.at)
            else { return nil }
            return "(\(name(ofToken: value)), expired at t=\(TimelineText.instant(token.expiresAt ?? entry.at)))"
        case .refreshToken:
            let sightings = transcript.issuedTokens.filter { $0.kind == .refresh }.flatMap { token in
                CredentialSearch.places(of: token.value, in: entry.request).map {
                    "\(token.label) in \($0)"
                }
            }
            return sightings.isEmpty ? nil : "(\(sightings.joined(separator: ", ")))"
        case .accessTokenInQuery:
            var sightings = transcript.issuedTokens.filter { $0.kind == .access }.flatMap { token in
                CredentialSearch.places(of: token.value, in: entry.request).compactMap { place in
                    if case .queryParameter = place {
                        "\(token.label) in \(place)"
                    } else {
                        nil
                    }
                }
            }
            // RFC 6750 §2.3 names the parameter; a value the provider never issued still breaks the rule.
            if sightings.isEmpty, entry.request.queryItems.contains(where: { $0.name == "access_token" }) {
                sightings = ["query parameter access_token"]
            }
            return sightings.isEmpty ? nil : "(\(sightings.joined(separator: ", ")))"
        case .clientSecret, .clientSecretInQuery:
            let places = CredentialSearch.placesDecodingBasic(of: clientSecret, in: entry.request).filter { place in
                if forbidden == .clientSecret { return true }
                if case .queryParameter = place { return true }
                return false
            }
            return places.isEmpty ? nil : "(client secret in \(places.map(\.description).joined(separator: ", ")))"
        case .credentials:
            var sightings = entry.request.header("Authorization").map { _ in ["an Authorization header"] } ?? []
            sightings += transcript.issuedTokens.flatMap { token in
                CredentialSearch.places(of: token.value, in: entry.request).map {
                    "\(token.label) in \($0)"
                }
            }
            let credentialFields = [
                "client_secret", "password", "code", "code_verifier", "refresh_token", "access_token",
            ]
            sightings += (entry.request.formFields + entry.request.queryItems)
                .filter { credentialFields.contains($0.name) && !$0.value.isEmpty }
                .map { "parameter \($0.name)" }
            return sightings.isEmpty ? nil : "(\(Array(Set(sightings)).sorted().joined(separator: ", ")))"
        case .bearerForDPoPToken, .replayedDPoPProof, .staleDPoPNonce:
            return DPoPSighting(journal: transcript.journal, tokens: transcript).sighting(of: forbidden, in: entry)
        }
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
    private func name(ofToken value: String) -> String {
        guard let token = transcript.issuedToken(withValue: value) else {
            return "\(value) (not issued by the provider)"
        }
        return "\(value) (\(token.label))"
    }

    func describe(_ entry: JournalEntry) -> String {
        "#\(entry.sequence) t=\(TimelineText.instant(entry.at))"
    }

    func listing(_ entries: [JournalEntry]) -> String {
        guard !entries.isEmpty else { return "" }
        let shown = entries.prefix(8).map(describe).joined(separator: ", ")
        return " (\(shown)\(entries.count > 8 ? ", …" : ""))"
    }
}
