import Foundation

/// A call that needs the user again (MCP authorization 2026-07-28, "Step-Up Authorization Flow"):
/// a client may meet, in the middle of the application's call, an answer only a new authorization
/// cures (403 `insufficient_scope`, a 401 it cannot refresh away). The MCP Python SDK then calls
/// its redirect handler and waits for the browser, the call still open. Such a client answers the
/// call with `ClientAnswer.needsAuthorization`; the harness's browser visits the URL exactly as
/// for a sign-in, sends `completeAuthorization` with the redirect, and that answer is the call's,
/// which may ask again. Any call answered by an outcome may do so, whatever the client.
///
/// Bounded: the spec has a client retry "no more than a few times", and a client that asks more
/// must not hang the run. Past `mostPerCall` the user declines (an `access_denied` redirect, so a
/// library waiting for its callback is released) and the call's outcome is the harness's verdict,
/// a failure that is no refusal, whatever the client made of the denial.
struct InCallAuthorization: Sendable {
    /// How many authorizations one call may ask the user for. The spec's "a few"; a client that
    /// needs more for one call loops.
    static let mostPerCall = 3

    let client: any ClientUnderTest
    let browser: AuthorizationBrowser
    /// Nobody is at the browser (`Step.hasUserAtTheBrowser`): the step expects the call to fail, and
    /// an interactive client shows that it needs the user by asking for them inside the call where
    /// another reports it. Its first ask is the outcome `authorization_required`, and is declined
    /// so that a library waiting for its callback is released.
    var userIsAway = false

    /// The outcome of `call`, with every authorization it asks for carried out.
    func outcome(of call: ClientCall) async -> ClientOutcome {
        await settle(await client.perform(call), answering: call)
    }

    /// The outcome `answer` (to `call`) comes to once every authorization it asks for is carried out.
    func settle(_ answer: ClientAnswer, answering call: ClientCall) async -> ClientOutcome {
        var answer = answer
        var answered = call
        var authorizations = 0
        while case .needsAuthorization(let url) = answer {
            if userIsAway {
                return await decline(
                    url,
                    outcome: ClientFailure(
                        .authorizationRequired,
                        message:
                            "the client asked the user to authorize again within the call (nobody was at the browser)"
                    )
                )
            }
            guard authorizations < Self.mostPerCall else {
                return await decline(
                    url,
                    outcome: ClientFailure(
                        .unexpected,
                        message:
                            "the client asked the user to authorize again within one call after \(authorizations) authorizations (the harness allows \(Self.mostPerCall) per call: the spec's retry \"no more than a few times\"); the user declined"
                    )
                )
            }
            authorizations += 1
            switch await Self.visit(url, through: browser) {
            case .success(let redirect):
                answered = .completeAuthorization(redirectURL: redirect)
                answer = await client.perform(answered)
            case .failure(let failure):
                return .failure(Self.noted(failure, authorizations: authorizations))
            }
        }
        let outcome = answer.outcome(answering: answered)
        guard authorizations > 0 else { return outcome }
        switch outcome {
        case .success(let status, let body):
            return .success(status: status, body: body + Self.note(authorizations))
        case .failure(let failure):
            return .failure(Self.noted(failure, authorizations: authorizations))
        }
    }

    /// The browser opens the URL the client named; the provider plays the consenting user. A
    /// provider that does not redirect leaves the user stuck, which the client cannot notice: the
    /// step fails with what the page said.
    static func visit(_ url: String, through browser: AuthorizationBrowser) async -> Result<String, ClientFailure> {
        do {
            switch try await browser.open(url) {
            case .redirected(let redirect): return .success(redirect)
            case .stopped(let status, let body):
                return .failure(
                    ClientFailure(
                        .protocolViolation,
                        message:
                            "the provider answered the authorization URL with \(status) and no redirect: \(body.prefix(200))"
                    )
                )
            }
        } catch {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message: "the browser could not open the client's authorization URL \(url): \(error)"
                )
            )
        }
    }

    /// The user declines the authorization (RFC 6749 §4.1.2.1 `access_denied`, to the request's own
    /// `redirect_uri` and `state`): nobody was at the browser, or it was one too many. A client
    /// waiting for the redirect is answered; what it answers then changes nothing: the call's
    /// outcome is the harness's.
    private func decline(_ url: String, outcome: ClientFailure) async -> ClientOutcome {
        if let denial = Self.denial(of: url) {
            _ = await client.perform(.completeAuthorization(redirectURL: denial))
        }
        return .failure(outcome)
    }

    /// The `access_denied` redirect for an authorization request URL; `nil` without a `redirect_uri`.
    static func denial(of url: String) -> String? {
        let items = URLComponents(string: url)?.queryItems ?? []
        guard let redirectURI = items.first(where: { $0.name == "redirect_uri" })?.value,
            var redirect = URLComponents(string: redirectURI)
        else { return nil }
        var query = redirect.queryItems ?? []
        query.append(URLQueryItem(name: "error", value: "access_denied"))
        query.append(URLQueryItem(name: "error_description", value: "the user declined another authorization"))
        if let state = items.first(where: { $0.name == "state" })?.value {
            query.append(URLQueryItem(name: "state", value: state))
        }
        redirect.queryItems = query
        return redirect.string
    }

    /// How the step's outcome records the authorizations the call asked for, so a reader of the
    /// transcript sees each; the provider's journal has each authorization request besides.
    private static func note(_ authorizations: Int) -> String {
        "; the user authorized \(authorizations) time\(authorizations == 1 ? "" : "s") within the call"
    }

    private static func noted(_ failure: ClientFailure, authorizations: Int) -> ClientFailure {
        var noted = failure
        noted.message += note(authorizations)
        return noted
    }
}
