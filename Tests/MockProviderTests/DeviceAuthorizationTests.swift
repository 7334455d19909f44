import Foundation
import MockProvider
import Testing

/// The device authorization grant (RFC 8628) at the provider, observed on the wire: what the
/// device authorization endpoint answers, and each answer a poll can get.
@Suite("Device authorization: codes, polling answers and the user on the other device")
struct DeviceAuthorizationTests {
    static func settings(_ policy: DeviceAuthorizationPolicy) -> ProviderSettings {
        var settings = ProviderSettings()
        settings.deviceAuthorization = policy
        return settings
    }

    func start(_ provider: RunningProvider) async throws -> RunningProvider.Answer {
        try await provider.send(
            "POST",
            path: "/device_authorization",
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"),
                ("Authorization", "Basic " + Data("conformance-client:conformance-secret".utf8).base64EncodedString()),
            ],
            body: ""
        )
    }

    func poll(_ provider: RunningProvider, _ deviceCode: String) async throws -> String? {
        let answer = try await provider.token(
            [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode)],
            basic: provider.settings.client
        )
        return answer.status == 200 ? "tokens" : answer.json?["error"]?.stringValue
    }

    @Test("the code comes with its user code, URIs, lifetime and interval; polls are pending until the user approves")
    func approval() async throws {
        try await RunningProvider.with(Self.settings(.init(interval: .seconds(5), user: .approvesAtPoll(3)))) {
            provider in
            let started = try await start(provider)
            #expect(started.status == 200)
            #expect(started.json?["interval"] == .integer(5) && started.json?["expires_in"] == .integer(600))
            #expect(started.json?["verification_uri"]?.stringValue == provider.server.baseURL + "/device")
            #expect(started.json?["verification_uri_complete"]?.stringValue?.contains("user_code=") == true)
            let code = try #require(started.json?["device_code"]?.stringValue)
            var answers: [String?] = []
            for _ in 0..<3 {
                answers.append(try await poll(provider, code))
                provider.provider.clock.advance(by: .seconds(5))
            }
            #expect(answers == ["authorization_pending", "authorization_pending", "tokens"])
            #expect(try await poll(provider, code) == "invalid_grant", "a code buys tokens once")
        }
    }

    @Test("a poll before the interval is slow_down and makes the interval 5 s longer")
    func slowDown() async throws {
        try await RunningProvider.with(Self.settings(.init(interval: .seconds(5), user: .never))) { provider in
            let code = try #require(try await start(provider).json?["device_code"]?.stringValue)
            #expect(try await poll(provider, code) == "authorization_pending")
            provider.provider.clock.advance(by: .seconds(4))
            #expect(try await poll(provider, code) == "slow_down")
            provider.provider.clock.advance(by: .seconds(5))
            #expect(try await poll(provider, code) == "slow_down", "the interval is 10 s now")
            provider.provider.clock.advance(by: .seconds(15))
            #expect(try await poll(provider, code) == "authorization_pending")
        }
    }

    @Test("a denial is access_denied; an expired code is expired_token; no interval when none is set")
    func denialAndExpiry() async throws {
        try await RunningProvider.with(Self.settings(.init(interval: nil, user: .deniesAtPoll(1)))) { provider in
            let started = try await start(provider)
            #expect(started.json?["interval"] == nil)
            #expect(
                try await poll(provider, try #require(started.json?["device_code"]?.stringValue)) == "access_denied"
            )
        }
        try await RunningProvider.with(Self.settings(.init(expiresIn: .seconds(60), user: .never))) { provider in
            let code = try #require(try await start(provider).json?["device_code"]?.stringValue)
            provider.provider.clock.advance(by: .seconds(60))
            #expect(try await poll(provider, code) == "expired_token")
            let metadata = try await provider.send("GET", path: "/.well-known/oauth-authorization-server")
            #expect(
                metadata.json?["device_authorization_endpoint"]?.stringValue == provider.server.baseURL
                    + "/device_authorization"
            )
        }
    }
}
