import Foundation

/// RFC 6749 §4.1.1–4.1.2 with RFC 7636 and RFC 9207: plays the user, who always consents, and
/// redirects back with `code`, `state` and `iss`. Requests it cannot trust to redirect (unknown
/// client, unregistered redirect URI) get an error page instead, as §4.1.2.1 requires.
struct AuthorizationEndpoint: Sendable {
    let settings: ProviderSettings
    let codes: AuthorizationCodes
    let pushed: PushedAuthorizationRequests
    let registrations: ClientRegistrations

    func serve(_ request: ProviderRequest, issuer: String, at now: Duration) -> ProviderResponse {
        var query = Dictionary(request.queryItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let clientID = query["client_id"], let client = knownClient(clientID) else {
            return Self.errorPage("unknown or missing client_id")
        }
        // RFC 9126 §4: a request by reference is the pushed one; its client_id must be the pusher's.
        if let uri = query["request_uri"] {
            switch pushed.redeem(uri, at: now) {
            case .failure(let problem): return Self.errorPage(problem.reason)
            case .success(let parameters):
                guard parameters["client_id"] == nil || parameters["client_id"] == query["client_id"] else {
                    return Self.errorPage("the pushed request was made for another client_id")
                }
                query = parameters.merging(["client_id": clientID]) { _, given in given }
            }
        } else if settings.pushedAuthorization?.required == true {
            return Self.errorPage(
                "this provider requires pushed authorization requests: push to /par and send request_uri (RFC 9126 §5)"
            )
        }
        guard let redirectURI = registeredRedirectURI(query["redirect_uri"], registered: client.redirectURIs) else {
            return Self.errorPage("redirect_uri is missing or not registered for this client")
        }
        let state = query["state"]
        guard query["response_type"] == "code" else {
            return Self.redirect(
                to: redirectURI,
                ["error": "unsupported_response_type", "state": state, "iss": issuer]
            )
        }
        guard query["code_challenge"] != nil || client.isConfidential else {
            // RFC 9700 §2.1.1: a public client must use PKCE; providers answer its absence so.
            return Self.redirect(
                to: redirectURI,
                [
                    "error": "invalid_request",
                    "error_description":
                        "code_challenge is missing: the client is registered as a public client, which must use PKCE (RFC 9700 §2.1.1)",
                    "state": state, "iss": issuer,
                ]
            )
        }
        var method: CodeChallengeMethod?
        if let challenge = query["code_challenge"] {
            // RFC 7636 §4.3: a challenge without a method is "plain".
            method = CodeChallengeMethod(rawValue: query["code_challenge_method"] ?? "plain")
            guard method != nil, !challenge.isEmpty else {
                return Self.redirect(
                    to: redirectURI,
                    [
                        "error": "invalid_request", "error_description": "unsupported code_challenge_method",
                        "state": state, "iss": issuer,
                    ]
                )
            }
        }
        let code = codes.issue(
            clientID: clientID,
            redirectURI: query["redirect_uri"],
            challenge: query["code_challenge"],
            method: method,
            subject: settings.user.username,
            scope: query["scope"],
            openID: Self.openIDRequest(query),
            at: now
        )
        return Self.redirect(to: redirectURI, ["code": code, "state": state, "iss": issuer])
    }

    /// OpenID Connect Core §3.1.2.1: a request is an authentication request when its scope holds `openid`.
    private static func openIDRequest(_ query: [String: String]) -> OpenIDRequest? {
        OpenIDScope.includesOpenID(query["scope"]) ? OpenIDRequest(nonce: query["nonce"]) : nil
    }

    /// What the endpoint needs to know of a client it knows: the one registered before the
    /// scenario (unless the scenario says there is none), or one registered during it.
    private struct KnownClient {
        let redirectURIs: [String]
        let isConfidential: Bool
    }

    private func knownClient(_ clientID: String) -> KnownClient? {
        if let registered = registrations.client(id: clientID) {
            return KnownClient(
                redirectURIs: registered.redirectURIs ?? settings.redirectURIs,
                isConfidential: registered.secret != nil
            )
        }
        guard registrations.policy.preRegistered, clientID == settings.client.id else { return nil }
        return KnownClient(
            redirectURIs: settings.redirectURIs,
            isConfidential: settings.clientAuthentication.isConfidential
        )
    }

    /// The redirect URI to use: the one given if registered (a loopback URI on any port, RFC 8252
    /// §7.3), or the only registered one when none is given.
    private func registeredRedirectURI(_ given: String?, registered: [String]) -> String? {
        guard let given else { return registered.count == 1 ? registered[0] : nil }
        return registered.contains { Self.matches(registered: $0, given: given) } ? given : nil
    }

    static func matches(registered: String, given: String) -> Bool {
        if registered == given { return true }
        guard var registeredParts = URLComponents(string: registered), var givenParts = URLComponents(string: given),
            registeredParts.scheme == "http",
            ["127.0.0.1", "localhost", "[::1]", "::1"].contains(registeredParts.host ?? "")
        else { return false }
        registeredParts.port = nil
        givenParts.port = nil
        return registeredParts == givenParts
    }

    static func redirect(to redirectURI: String, _ parameters: KeyValuePairs<String, String?>) -> ProviderResponse {
        var components = URLComponents(string: redirectURI) ?? URLComponents()
        var items = components.queryItems ?? []
        for (name, value) in parameters {
            if let value { items.append(URLQueryItem(name: name, value: value)) }
        }
        components.queryItems = items
        return ProviderResponse(
            status: 302,
            headers: [
                HeaderField("Location", components.string ?? redirectURI), HeaderField("Cache-Control", "no-store"),
            ]
        )
    }

    static func errorPage(_ reason: String) -> ProviderResponse {
        ProviderResponse(
            status: 400,
            headers: [HeaderField("Content-Type", "text/html; charset=utf-8")],
            body: "<!doctype html><title>Authorization error</title><h1>Authorization error</h1><p>\(reason)</p>\n"
        )
    }
}
