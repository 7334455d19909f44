import MockProvider

/// The request timeline of a run in virtual time, one line a step or request:
/// `t=+61s  #4 POST /token grant_type=refresh_token refresh_token=rt-1 → 200 access_token=at-2`.
public enum TimelineText {
    /// `+0s`, `+61s`, `+59m55s`.
    public static func instant(_ instant: Duration) -> String {
        "+" + DurationText.format(instant)
    }

    /// Steps with the requests each made beneath them; `marked` entries get a `>` in the margin.
    public static func lines(for transcript: Transcript, marking marked: Set<Int> = []) -> [String] {
        var lines: [String] = []
        var shown = Set<Int>()
        let entriesBySequence = Dictionary(
            transcript.journal.map { ($0.sequence, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        for record in transcript.steps {
            lines.append(
                "t=\(instant(record.startedAt))  step \(record.number): \(record.step.action.text)\(record.signedInBy.map { " (by \($0.rawValue))" } ?? "") → \(describe(record.result))"
                    + (record.identity.map { "; signed in: \($0)" } ?? "")
            )
            for sequence in record.journalSequences.map(Array.init) ?? [] {
                guard let entry = entriesBySequence[sequence] else { continue }
                shown.insert(sequence)
                lines.append(line(for: entry, marked: marked.contains(sequence), idTokens: transcript.idTokens))
            }
        }
        // Requests outside any recorded step: made after the run stopped early, or in the background.
        for entry in transcript.journal where !shown.contains(entry.sequence) {
            lines.append(line(for: entry, marked: marked.contains(entry.sequence), idTokens: transcript.idTokens))
        }
        return lines
    }

    static func line(for entry: JournalEntry, marked: Bool, idTokens: [IssuedIDToken] = []) -> String {
        "\(marked ? ">" : " ")   t=\(instant(entry.at))  #\(entry.sequence) \(request(entry, idTokens: idTokens)) → \(response(entry, idTokens: idTokens))"
            + (entry.request.madeByTheHarness
                ? " (sent by the harness: the earlier sign-in whose tokens were saved)" : "")
    }

    static func describe(_ result: StepResult) -> String {
        switch result {
        case .clockMoved(let instant): "clock at t=\(Self.instant(instant))"
        case .client(let outcome):
            switch outcome {
            // A request step succeeds only on a 2xx (docs/scenario-language/steps.md): a 401 the
            // client handed back is an answer, not a success.
            case .success(let status, _): outcome.succeeded ? "success (\(status))" : "answered \(status) (not 2xx)"
            case .failure(let failure):
                "error \(failure.category.rawValue)\(failure.oauthError.map { " \($0)" } ?? ""): \(failure.message)"
                    + (failure.errorType.map { " [\($0)]" } ?? "")
            }
        case .clients(let outcomes): Tally.text(outcomes.map { describe(.client($0)) })
        case .waited(let amount): "waited \(DurationText.format(amount)) of real time"
        case .revoked(let tokens):
            tokens.isEmpty ? "nothing to revoke" : "revoked " + tokens.map(\.description).joined(separator: ", ")
        case .movedMCPServer(let server): "the MCP server now names the \(server.rawValue) authorization server"
        }
    }

    /// The request as the checks see it: how the client authenticated and what it sent; passwords
    /// and client secrets are masked, and an ID token (a long JWS) is named `id_token#N`.
    static func request(_ entry: JournalEntry, idTokens: [IssuedIDToken] = []) -> String {
        var text = "\(entry.request.method) \(entry.request.path)"
        if entry.endpoint == .authorize {
            text = "\(entry.request.method) \(entry.request.target)"
        } else if entry.endpoint?.takesGrants == true {
            let shown = entry.request.formFields.map { field in
                if ["password", "client_secret"].contains(field.name) { return "\(field.name)=***" }
                if let idToken = idTokens.first(where: { $0.value == field.value }) {
                    return "\(field.name)=id_token#\(idToken.ordinal)"
                }
                return "\(field.name)=\(field.value)"
            }
            text += authorization(of: entry.request).map { " " + $0 } ?? ""
            if !shown.isEmpty { text += " " + shown.joined(separator: " ") }
        } else {
            text += " " + (authorization(of: entry.request) ?? "(no Authorization)")
        }
        return text + proof(of: entry.request)
    }

    /// The `Authorization` header as checks read it: `Bearer at-1`, a DPoP-bound token, or HTTP
    /// Basic client authentication with its secret masked (`Basic demo-client:***`); a scheme
    /// the harness does not read is shown by name only, since its credentials may be secret.
    static func authorization(of request: ProviderRequest) -> String? {
        guard let authorization = request.header("Authorization") else { return nil }
        if let bearer = request.bearerToken { return "Bearer \(bearer)" }
        if authorization.lowercased().hasPrefix("dpop ") { return authorization }
        let scheme = authorization.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        guard scheme.lowercased() == "basic" else { return "\(scheme) ***" }
        return request.basicCredentials.map { "Basic \($0.id):***" } ?? "Basic (not base64 of id:secret)"
    }

    /// RFC 9449: what a DPoP proof says that checks judge, e.g. ` [DPoP jti=4fG… nonce=as-nonce-1]`.
    private static func proof(of request: ProviderRequest) -> String {
        guard request.header("DPoP") != nil else { return "" }
        guard let claims = DPoPSighting.claims(of: request) else { return " [DPoP: unreadable]" }
        let jti = claims["jti"]?.stringValue.map { " jti=" + String($0.prefix(8)) + ($0.count > 8 ? "…" : "") } ?? ""
        let nonce = claims["nonce"]?.stringValue.map { " nonce=\($0)" } ?? ""
        return " [DPoP\(jti)\(nonce)]"
    }

    /// Status plus what matters in the answer: tokens issued, the error code, the challenge.
    static func response(_ entry: JournalEntry, idTokens: [IssuedIDToken] = []) -> String {
        var text = "\(entry.response.status)"
        if entry.endpoint?.takesGrants == true,
            case .object(let members)? = JSONValue.parse(entry.response.body)
        {
            let interesting = ["error", "access_token", "refresh_token", "expires_in"].compactMap { name in
                members[name].map { "\(name)=\(Self.text(of: $0))" }
            }
            // A bearer token_type is the norm; any other is worth seeing.
            let tokenType =
                members["token_type"].flatMap(\.stringValue).flatMap {
                    $0.lowercased() == "bearer" ? nil : ["token_type=\($0)"]
                } ?? []
            if !(interesting + tokenType).isEmpty { text += " " + (interesting + tokenType).joined(separator: " ") }
            if let idToken = members["id_token"]?.stringValue {
                // Named and described, never printed: a JWS is long, and what was done to it is what matters.
                text +=
                    idTokens.first { $0.value == idToken }.map { " id_token=id_token#\($0.ordinal) (\($0.signedWith))" }
                    ?? " id_token=(not issued by the provider)"
            }
        }
        if entry.endpoint == .deviceAuthorization, case .object(let members)? = JSONValue.parse(entry.response.body) {
            let shown = ["user_code", "interval", "expires_in"].compactMap { name in
                members[name].map { "\(name)=\(Self.text(of: $0))" }
            }
            if !shown.isEmpty { text += " " + shown.joined(separator: " ") }
        }
        if entry.endpoint == .userinfo, case .object(let members)? = JSONValue.parse(entry.response.body),
            let subject = members["sub"]?.stringValue
        {
            text += " sub=\(subject)"
        }
        // Headers the client is judged on following or ignoring; an authorization redirect's
        // Location is the browser's, and long.
        for name in ["WWW-Authenticate", "DPoP-Nonce", "Retry-After"]
            + (entry.endpoint == .authorize ? [] : ["Location"])
        {
            if let value = entry.response.header(name) { text += " \(name): \(value)" }
        }
        if let rule = entry.appliedRule { text += " [rule \(rule + 1)]" }
        return Self.delivered(text, by: entry.delivery)
    }

    /// The answer as the client met it: a transport fault replaced it (the client never read those
    /// tokens), a slow delivery only delayed it.
    static func delivered(_ answer: String, by delivery: Delivery) -> String {
        switch delivery {
        case .immediate: answer
        case .never, .reset, .closeWithoutAnswer, .garbage: "\(delivery.label), instead of \(answer)"
        case .delayed, .dribble, .heldUntilRequest: "\(answer) (\(delivery.label))"
        }
    }

    private static func text(of value: JSONValue) -> String {
        if case .string(let string) = value { return string }
        return value.serialized()
    }
}
