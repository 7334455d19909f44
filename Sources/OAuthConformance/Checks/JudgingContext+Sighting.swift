import MockProvider

/// How a request carries what a `never: { carries: … }` check forbids, read off the request and
/// what the run issued.
extension JudgingContext {
    /// What tells, request by request, how each carries `forbidden`: what it needs from the whole
    /// run (which server issued each credential) is read once, not once per request.
    func sighter(for forbidden: ForbiddenCarriage) -> (JournalEntry) -> String? {
        guard forbidden == .anotherAuthorizationServersCredentials else {
            return { sighting(of: forbidden, in: $0) }
        }
        let binding = AuthorizationServerBinding(transcript: transcript, preRegistered: preRegisteredClient)
        return binding.sighting(in:)
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
        case .anotherAuthorizationServersCredentials:
            // The sighter reads the whole run for it; this is the one request's answer.
            return sighter(for: forbidden)(entry)
        case .bearerForDPoPToken, .replayedDPoPProof, .staleDPoPNonce:
            return DPoPSighting(journal: transcript.journal, tokens: transcript).sighting(of: forbidden, in: entry)
        }
    }
}
