import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1
import NIOSSL

/// Obtaining and refreshing tokens at the token endpoint: single-flight refresh, client
/// authentication, `Retry-After` honoured.
extension ReferenceClient {
    /// The access token to send, refreshed first when it is inside the refresh window.
    func usableAccessToken() async -> Result<String, ClientFailure> {
        guard let current = tokens else {
            return .failure(ClientFailure(.authorizationRequired, message: "no tokens: sign in first"))
        }
        guard current.needsRefresh(at: now(), leeway: leeway(for: current)) else {
            return .success(current.accessToken)
        }
        // RFC 6749 §4.4.3: without a refresh token, a client_credentials client simply asks again.
        if current.refreshToken != nil || loginGrant == .clientCredentials {
            return await refresh().map(\.accessToken)
        }
        guard !current.isExpired(at: now()) else {
            return .failure(
                ClientFailure(.authorizationRequired, message: "the access token expired and there is no refresh token")
            )
        }
        return .success(current.accessToken)
    }

    /// The refresh window, shortened to half the stated lifetime for tokens that live less than
    /// twice the window, so a short-lived token is not refreshed on every request (PR-05).
    func leeway(for tokens: TokenSet) -> Duration {
        guard behaviour.clampsLeewayToHalfLifetime, let lifetime = tokens.lifetime else {
            return behaviour.refreshLeeway
        }
        return min(behaviour.refreshLeeway, .seconds(lifetime / 2))
    }

    /// One refresh at a time: concurrent callers wait for the refresh already under way, and
    /// share its result, failure included (SF-03).
    func refresh() async -> Result<TokenSet, ClientFailure> {
        guard behaviour.sharesOneRefresh else { return await performRefresh() }
        if let inFlight = refreshInFlight {
            let heldRefreshToken = tokens?.refreshToken
            let shared = await inFlight.value
            if behaviour.waitersRetryFailedRefresh, case .failure = shared, let heldRefreshToken {
                return await requestTokens(
                    [("grant_type", "refresh_token"), ("refresh_token", heldRefreshToken)],
                    previous: nil
                )
            }
            return shared
        }
        let task = Task { await self.performRefresh() }
        refreshInFlight = task
        let result = await task.value
        if refreshInFlight == task { refreshInFlight = nil }
        return result
    }

    func performRefresh() async -> Result<TokenSet, ClientFailure> {
        guard let previous = tokens else {
            return .failure(ClientFailure(.authorizationRequired, message: "no tokens: sign in first"))
        }
        let form: [(String, String)]
        if let refreshToken = previous.refreshToken {
            form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        } else if loginGrant == .clientCredentials, let again = grantForm(.clientCredentials) {
            form = again
        } else {
            return .failure(ClientFailure(.authorizationRequired, message: "no refresh token: sign in again"))
        }
        var result = await requestTokens(form, previous: previous)
        var repeats = 0
        while behaviour.refreshesAgainOnInvalidClient, repeats < 10, case .failure(let failure) = result,
            failure.category == .invalidClient
        {
            repeats += 1
            result = await requestTokens(form, previous: previous)
        }
        if case .success(let refreshed) = result, let relyingParty {
            if case .failure(let refused) = await relyingParty.acceptRefresh(refreshed) {
                // §12.2: never another user. The refused response's tokens are dropped; the session stays.
                return .failure(refused)
            }
            signInStore.save(await relyingParty.signedInIDToken)
        }
        switch result {
        case .success(let refreshed):
            replaceTokens(with: refreshed, persisting: behaviour.persistsRefreshedTokens)
        case .failure(let failure) where failure.oauthError == "invalid_grant":
            // RFC 6749 §5.2: the grant is dead; retrying it cannot help, only a new sign-in can.
            if behaviour.discardsTokensOnInvalidGrant { replaceTokens(with: nil, persisting: true) }
        case .failure(let failure) where failure.category == .transient:
            if !behaviour.keepsTokensOnTransientFailure || !behaviour.keepsTokensWhenRefreshFails {
                replaceTokens(with: nil, persisting: true)
            }
        case .failure:
            if !behaviour.keepsTokensWhenRefreshFails { replaceTokens(with: nil, persisting: true) }
        }
        if case .failure = result, !behaviour.discardsPasswordOnceTokensArrive, loginGrant == .password,
            let again = grantForm(.password)
        {
            let signedInAgain = await requestTokens(again, previous: nil)
            if case .success(let obtained) = signedInAgain { replaceTokens(with: obtained, persisting: true) }
            return signedInAgain
        }
        return result
    }

    func requestTokens(
        _ fields: [(String, String)],
        previous: TokenSet?
    ) async -> Result<TokenSet, ClientFailure> {
        if let quietUntil = tokenEndpointQuietUntil, now() < quietUntil {
            let wait = Int(quietUntil.timeIntervalSince(now()).rounded(.up))
            return .failure(
                ClientFailure(
                    .transient,
                    message: "the token endpoint asked for no requests for another \(wait) s (Retry-After)"
                )
            )
        }
        var result = await exchangeTokens(fields, previous: previous)
        var attempts = 1
        while attempts < behaviour.attemptsOnServerError, case .failure(let failure) = result,
            failure.category == .transient
        {
            attempts += 1
            result = await exchangeTokens(fields, previous: previous)
        }
        return result
    }

    /// One token request and its answer, read as RFC 6749 §5.1 and §5.2 say; with DPoP, sent
    /// again with a new proof (and a new assertion) when the server demands a nonce (RFC 9449 §8).
    func exchangeTokens(
        _ fields: [(String, String)],
        previous: TokenSet?
    ) async -> Result<TokenSet, ClientFailure> {
        var nonceRetries = 0
        while true {
            let request: HTTPClientRequest
            let form: [(String, String)]
            let target = tokenRequestTarget(fields)
            switch await authenticatedPost(to: target.url, target.fields) {
            case .success(let built): (request, form) = built
            case .failure(let failure): return .failure(failure)
            }
            switch await exchangeTokenRequest(request, form: form, previous: previous) {
            case .answered(let result): return result
            case .nonceDemanded where nonceRetries < (dpop?.nonceRetries ?? 0): nonceRetries += 1
            case .nonceDemanded(let result): return result
            }
        }
    }

    enum TokenAnswer {
        case answered(Result<TokenSet, ClientFailure>)
        /// The server demanded a DPoP nonce it had not given before; the result, if the client stops here.
        case nonceDemanded(Result<TokenSet, ClientFailure>)
    }

    func exchangeTokenRequest(
        _ request: HTTPClientRequest,
        form: [(String, String)],
        previous: TokenSet?
    ) async -> TokenAnswer {
        var request = request
        do {
            if let dpop {
                let proof = try await dpop.proof(
                    method: "POST",
                    url: environment.endpoints.token,
                    accessToken: nil,
                    server: .authorizationServer,
                    now: now()
                )
                request.headers.add(name: "DPoP", value: proof)
            }
        } catch {
            return .answered(
                .failure(ClientFailure(.unexpected, message: "the DPoP proof could not be signed: \(error)"))
            )
        }
        do {
            let answer = try await exchange(request)
            noteRetryAfter(answer.headers)
            let nonceDemanded =
                await dpop?.noteAnswer(
                    status: answer.status,
                    headers: answer.headers,
                    body: answer.body,
                    from: .authorizationServer
                ) ?? false
            let result = interpreter.interpret(
                status: answer.status,
                body: answer.body,
                receivedAt: now(),
                previous: previous,
                serverDate: answer.headers["Date"].first.flatMap(Self.httpDate),
                askedForDPoP: dpop != nil
            )
            guard !nonceDemanded else { return .nonceDemanded(result) }
            return .answered(redactingCredentials(result, form: form))
        } catch {
            return .answered(.failure(Self.transportFailure(error)))
        }
    }

    func redactingCredentials(
        _ result: Result<TokenSet, ClientFailure>,
        form: [(String, String)]
    ) -> Result<TokenSet, ClientFailure> {
        guard !behaviour.keepsCredentialsOutOfErrors else { return result }
        // The defect quotes the whole request in its errors, credentials and all.
        return result.mapError { failure in
            ClientFailure(
                failure.category,
                oauthError: failure.oauthError,
                status: failure.status,
                message: failure.message + " (request: \(FormEncoding.encode(form)))"
            )
        }
    }

    /// A form POST to an endpoint of the authorization server (token, PAR) with the client's
    /// authentication: an assertion, HTTP Basic (or the form, for an MCP client registered for
    /// `client_secret_post`), or for a public client its `client_id` alone (RFC 6749 §3.2.1); the
    /// request and the form it carries.
    func authenticatedPost(
        to endpoint: String,
        _ fields: [(String, String)]
    ) async -> Result<(HTTPClientRequest, [(String, String)]), ClientFailure> {
        var form = fields
        var url = endpoint
        if !behaviour.keepsClientSecretOutOfURLs {
            url +=
                "?"
                + FormEncoding.encode([
                    ("client_id", environment.client.id), ("client_secret", environment.client.secret),
                ])
        }
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        if environment.clientAuthentication == .publicClient {
            form.append(("client_id", environment.client.id))
        } else if environment.clientAssertionKey != nil || environment.clientAuthentication == .clientSecretJWT {
            switch await clientAssertion() {
            case .success(let assertion):
                form += [
                    ("client_id", environment.client.id),
                    ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
                    ("client_assertion", assertion),
                ]
            case .failure(let failure):
                return .failure(failure)
            }
        } else if adoptedMCPRegistration?.postsSecret == true, behaviour.mcp.sendsSecretAsRegistered {
            // RFC 6749 §2.3.1: the way a client registered for client_secret_post authenticates.
            form += [("client_id", environment.client.id), ("client_secret", environment.client.secret)]
        } else {
            request.headers.add(
                name: "Authorization",
                value: FormEncoding.basicAuthorization(id: environment.client.id, secret: environment.client.secret)
            )
        }
        request.body = .bytes(ByteBuffer(string: FormEncoding.encode(form)))
        return .success((request, form))
    }

    /// A `private_key_jwt` assertion for one token request (RFC 7523 §3): a fresh `jti` every
    /// time, dated by the clock the client reads, for the token endpoint.
    func clientAssertion() async -> Result<String, ClientFailure> {
        if !behaviour.freshClientAssertions, let lastAssertion { return .success(lastAssertion) }
        do {
            let signer: ClientAssertionSigner
            if let assertionSigner {
                signer = assertionSigner
            } else {
                signer =
                    try await environment.clientAuthentication == .clientSecretJWT
                    ? ClientAssertionSigner(clientSecret: environment.client.secret)
                    : ClientAssertionSigner(privateJWK: environment.clientAssertionKey ?? "")
                assertionSigner = signer
            }
            let assertion = try await signer.assertion(
                clientID: environment.client.id,
                audience: environment.endpoints.token,
                issuedAt: behaviour.datesAssertionsByClientClock ? now() : Date(),
                jti: AuthorizationRequest.random()
            )
            lastAssertion = assertion
            return .success(assertion)
        } catch {
            return .failure(ClientFailure(.unexpected, message: "the client assertion could not be signed: \(error)"))
        }
    }

    /// RFC 9110 §10.2.3: `Retry-After` is delay-seconds or an HTTP-date.
    func noteRetryAfter(_ headers: HTTPHeaders) {
        guard behaviour.honoursRetryAfter,
            let value = headers["Retry-After"].first?.trimmingCharacters(in: .whitespaces)
        else { return }
        if let seconds = Int(value), seconds >= 0 {
            tokenEndpointQuietUntil = now().addingTimeInterval(TimeInterval(seconds))
        } else if behaviour.readsRetryAfterDates, let date = Self.httpDate(value) {
            tokenEndpointQuietUntil = date
        }
    }

    /// IMF-fixdate, the form RFC 9110 §5.6.7 requires senders to use.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}
