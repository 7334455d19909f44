import Foundation
import MockProvider
import Testing

/// The client a provider's settings register, talking to it as a conforming client of that
/// registration does: HTTP Basic with its secret when it is confidential, its `client_id` alone
/// in the form when it is public, and PKCE S256 in every authorization request.
struct RegisteredClient {
    /// The grants a client obtains tokens with, each driven from its first request.
    enum Grant: String, CaseIterable, CustomTestStringConvertible {
        case authorizationCode = "authorization_code"
        case password
        case deviceCode = "device_code"
        case clientCredentials = "client_credentials"
        /// A refresh of a password grant's refresh token.
        case refreshToken = "refresh_token"

        var testDescription: String { rawValue }

        /// The grants by which the user signs in, and so can carry an ID token.
        static let userGrants: [Grant] = [.authorizationCode, .password, .deviceCode]
    }

    static let redirectURI = "http://127.0.0.1:4711/callback"
    static let codeVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let nonce = "n-0S6_WzA2Mj"

    let provider: RunningProvider

    private var registration: ProviderSettings { provider.settings }

    /// POSTs a form to an endpoint that authenticates the client (token, device authorization).
    func post(_ path: String, _ form: [(String, String)]) async throws -> RunningProvider.Answer {
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        var fields = form
        if registration.clientAuthentication.isConfidential {
            let credentials = "\(registration.client.id):\(registration.client.secret)"
            headers.append(("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
        } else {
            fields.append(("client_id", registration.client.id))
        }
        var components = URLComponents()
        components.queryItems = fields.map { URLQueryItem(name: $0.0, value: $0.1) }
        let body = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        return try await provider.send("POST", path: path, headers: headers, body: body)
    }

    func token(_ form: [(String, String)]) async throws -> RunningProvider.Answer {
        try await post(Endpoint.token.path, form)
    }

    /// The token response of `grant`, asking for `scope`; a refresh refreshes a password grant's
    /// refresh token after ten minutes of virtual time.
    func tokens(by grant: Grant, scope: String) async throws -> RunningProvider.Answer {
        switch grant {
        case .authorizationCode:
            let code = try await authorizationCode(scope: scope)
            return try await token([
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.redirectURI),
                ("code_verifier", Self.codeVerifier),
            ])
        case .password:
            return try await token([
                ("grant_type", "password"), ("username", registration.user.username),
                ("password", registration.user.password), ("scope", scope),
            ])
        case .deviceCode:
            return try await deviceTokens(scope: scope)
        case .clientCredentials:
            return try await token([("grant_type", "client_credentials"), ("scope", scope)])
        case .refreshToken:
            let first = try await tokens(by: .password, scope: scope)
            let refreshToken = try #require(first.json?["refresh_token"]?.stringValue, "\(first.body)")
            provider.provider.clock.advance(by: .seconds(600))
            return try await refresh(refreshToken)
        }
    }

    func refresh(_ refreshToken: String) async throws -> RunningProvider.Answer {
        try await token([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    /// The browser's visit to the authorization endpoint, consented, with a nonce (used when the
    /// scope holds openid); the code it came back with.
    func authorizationCode(scope: String) async throws -> String {
        var components = URLComponents()
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: registration.client.id),
            URLQueryItem(name: "redirect_uri", value: Self.redirectURI),
            URLQueryItem(name: "scope", value: scope),
            URLQueryItem(name: "state", value: "s-1"),
            URLQueryItem(name: "nonce", value: Self.nonce),
            URLQueryItem(name: "code_challenge", value: PKCEFixture.s256(Self.codeVerifier)),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        let answer = try await provider.send("GET", path: "/authorize?" + (components.percentEncodedQuery ?? ""))
        let location = try #require(answer.headers["Location"].first.flatMap(URLComponents.init(string:)))
        return try #require(location.queryItems?.first { $0.name == "code" }?.value, "\(location)")
    }

    /// RFC 8628: the device authorization, then polls at the interval until the user approves.
    func deviceTokens(scope: String) async throws -> RunningProvider.Answer {
        let started = try await post(Endpoint.deviceAuthorization.path, [("scope", scope)])
        let deviceCode = try #require(started.json?["device_code"]?.stringValue, "\(started.body)")
        var interval = DeviceAuthorizationPolicy.defaultInterval
        if case .integer(let seconds)? = started.json?["interval"] { interval = .seconds(seconds) }
        for _ in 0..<10 {
            let answer = try await token([
                ("grant_type", GrantType.deviceCode.rawValue), ("device_code", deviceCode),
            ])
            guard answer.json?["error"]?.stringValue == "authorization_pending" else { return answer }
            provider.provider.clock.advance(by: interval)
        }
        Issue.record("the user never approved the device code")
        return started
    }
}
