import Foundation
import MockProvider
import Testing

/// The app's own server on the provider's other origin (catalogue section D): it trades the
/// provider's ID token for the app's tokens, refreshes those, and serves a resource that takes
/// only them.
@Suite("The app server trades ID tokens for its own tokens")
struct AppServerTests {
    static let idTokenType = "urn:ietf:params:oauth:token-type:id_token"

    static func exchangeForm(_ subjectToken: String, type: String = idTokenType) -> [(String, String)] {
        [
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"), ("subject_token", subjectToken),
            ("subject_token_type", type), ("client_id", "conformance-client"),
        ]
    }

    @Test(
        "a token exchange of the provider's ID token brings app tokens the app resource takes and the provider's does not"
    )
    func exchange() async throws {
        try await RunningProvider.with { provider in
            let signIn = try await OpenIDSignIn.signIn(provider)
            let idToken = try #require(signIn.json?["id_token"]?.stringValue)
            let exchanged = try await provider.appServerToken(Self.exchangeForm(idToken))
            #expect(exchanged.status == 200, "\(exchanged.body)")
            #expect(
                exchanged.json?["issued_token_type"]?.stringValue == "urn:ietf:params:oauth:token-type:access_token"
            )
            #expect(exchanged.json?["token_type"]?.stringValue == "Bearer")
            let appToken = try #require(exchanged.json?["access_token"]?.stringValue)
            #expect(appToken != signIn.json?["access_token"]?.stringValue)
            let appResource = try await provider.send(
                "GET",
                url: provider.server.otherOriginURL + "/app/resource",
                headers: [("Authorization", "Bearer \(appToken)")]
            )
            #expect(appResource.status == 200)
            #expect(appResource.json?["subject"]?.stringValue == provider.settings.user.username)
            #expect(try await provider.resource(bearer: appToken).status == 401)
            let providerToken = try #require(signIn.json?["access_token"]?.stringValue)
            let wrongWay = try await provider.send(
                "GET",
                url: provider.server.otherOriginURL + "/app/resource",
                headers: [("Authorization", "Bearer \(providerToken)")]
            )
            #expect(wrongWay.status == 401)
            #expect(
                provider.provider.issuedTokens.contains { $0.server == .appServer && $0.label == "app_access_token#1" }
            )
        }
    }

    @Test("the JWT bearer grant takes the ID token as its assertion, without issued_token_type")
    func jwtBearer() async throws {
        try await RunningProvider.with { provider in
            let idToken = try #require(try await OpenIDSignIn.signIn(provider).json?["id_token"]?.stringValue)
            let answer = try await provider.appServerToken([
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", idToken),
            ])
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.json?["issued_token_type"] == nil)
            #expect(answer.json?["refresh_token"]?.stringValue == "app-rt-1")
        }
    }

    @Test("an expired, altered or foreign subject token, or the wrong token type, is refused")
    func refusals() async throws {
        let settings = ProviderSettings(
            rules: [
                ProviderRule(
                    match: RequestMatcher(endpoint: .token, grant: .refreshToken),
                    action: .alterIDToken(IDTokenAlteration(set: ["aud": .string("another-client")]))
                )
            ],
            idTokens: IDTokenPolicy(lifetime: .seconds(300))
        )
        try await RunningProvider.with(settings) { provider in
            let signIn = try await OpenIDSignIn.signIn(provider)
            let idToken = try #require(signIn.json?["id_token"]?.stringValue)
            let accessToken = try #require(signIn.json?["access_token"]?.stringValue)
            let asAccessToken = try await provider.appServerToken(
                Self.exchangeForm(accessToken, type: "urn:ietf:params:oauth:token-type:access_token")
            )
            #expect(asAccessToken.status == 400 && asAccessToken.json?["error"]?.stringValue == "invalid_request")
            let forged = try await provider.appServerToken(Self.exchangeForm(idToken + "x"))
            #expect(forged.json?["error"]?.stringValue == "invalid_grant")
            let refreshed = try await OpenIDSignIn.refresh(
                provider,
                try #require(signIn.json?["refresh_token"]?.stringValue)
            )
            let altered = try #require(refreshed.json?["id_token"]?.stringValue)
            #expect(
                try await provider.appServerToken(Self.exchangeForm(altered)).json?["error"]?.stringValue
                    == "invalid_grant"
            )
            provider.provider.clock.advance(by: .seconds(300))
            let expired = try await provider.appServerToken(Self.exchangeForm(idToken))
            #expect(expired.status == 400)
            #expect(expired.json?["error_description"]?.stringValue == "the ID token has expired")
        }
    }

    @Test("app refresh tokens refresh at the app server only; the provider's are unknown there")
    func refresh() async throws {
        try await RunningProvider.with { provider in
            let signIn = try await OpenIDSignIn.signIn(provider)
            let idToken = try #require(signIn.json?["id_token"]?.stringValue)
            let exchanged = try await provider.appServerToken(Self.exchangeForm(idToken))
            let appRefresh = try #require(exchanged.json?["refresh_token"]?.stringValue)
            let refreshed = try await provider.appServerToken([
                ("grant_type", "refresh_token"), ("refresh_token", appRefresh),
            ])
            #expect(refreshed.json?["access_token"]?.stringValue == "app-at-2")
            let providerRefresh = try #require(signIn.json?["refresh_token"]?.stringValue)
            let foreign = try await provider.appServerToken([
                ("grant_type", "refresh_token"), ("refresh_token", providerRefresh),
            ])
            #expect(foreign.json?["error"]?.stringValue == "invalid_grant")
            let atProvider = try await OpenIDSignIn.refresh(provider, appRefresh)
            #expect(atProvider.json?["error"]?.stringValue == "invalid_grant")
        }
    }

    @Test("the app server lives on the other origin only, and the provider exchanges nothing")
    func originsAndGrants() async throws {
        try await RunningProvider.with { provider in
            #expect(try await provider.send("POST", path: "/app/token").status == 404)
            let atProvider = try await provider.token(
                Self.exchangeForm("anything"),
                basic: provider.settings.client
            )
            #expect(atProvider.json?["error"]?.stringValue == "unsupported_grant_type")
            let entry = try #require(provider.provider.journal.entries.first)
            #expect(entry.endpoint == nil)
        }
    }
}
