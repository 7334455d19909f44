import Foundation
import MockProvider
import Testing

@Suite("Protected resource and virtual time")
struct ResourceAndClockTests {
    @Test("a valid bearer token is served; none gets a challenge without an error code")
    func bearerTokens() async throws {
        try await RunningProvider.with { provider throws in
            _ = try await provider.passwordGrant()
            let served = try await provider.resource(bearer: "at-1")
            #expect(served.status == 200)
            #expect(served.json?["subject"] == .string("alice"))
            let anonymous = try await provider.resource(bearer: nil)
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["WWW-Authenticate"].first == "Bearer realm=\"mock-provider\"")
            let forged = try await provider.resource(bearer: "at-999")
            #expect(forged.headers["WWW-Authenticate"].first?.contains("error=\"invalid_token\"") == true)
        }
    }

    @Test("with a clock skew every answer carries a Date header that far from the virtual clock; without one, none")
    func skewedDateHeader() async throws {
        try await RunningProvider.with(ProviderSettings(clockSkew: .seconds(-600))) { provider throws in
            provider.provider.clock.advance(by: .seconds(90))
            let answer = try await provider.passwordGrant()
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = try #require(answer.headers["Date"].first.flatMap(formatter.date))
            #expect(date == VirtualClock.defaultOrigin.addingTimeInterval(90 - 600))
        }
        try await RunningProvider.with { provider throws in
            #expect(try await provider.passwordGrant().headers["Date"].isEmpty)
        }
    }

    @Test("a token expires on the virtual clock: one hour of lifetime costs no real hour")
    func expiryOnVirtualTime() async throws {
        try await RunningProvider.with(ProviderSettings(tokens: TokenPolicy(accessLifetime: .seconds(3600)))) {
            provider throws in
            _ = try await provider.passwordGrant()
            provider.provider.clock.advance(by: .seconds(3599))
            #expect(try await provider.resource(bearer: "at-1").status == 200)
            provider.provider.clock.advance(by: .seconds(1))
            let expired = try await provider.resource(bearer: "at-1")
            #expect(expired.status == 401)
            #expect(
                expired.headers["WWW-Authenticate"].first == "Bearer realm=\"mock-provider\", error=\"invalid_token\""
            )
        }
    }

    @Test("a wait of Int.max seconds stops the virtual clock at the end of 9999, still whole Unix seconds")
    func clockEndsWithTheYear9999() {
        let clock = VirtualClock()
        clock.advance(by: .seconds(Int.max))
        #expect(Int(exactly: clock.now.timeIntervalSince1970) == NumericDate.latest)
        clock.advance(by: .seconds(Int.max))
        #expect(Int(exactly: clock.now.timeIntervalSince1970) == NumericDate.latest)
        #expect(clock.elapsed.seconds == Double(NumericDate.latest) - VirtualClock.defaultOrigin.timeIntervalSince1970)
    }

    @Test("the journal records virtual time, request, form fields, status and the rule applied")
    func journal() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .resource, calls: .nth(2)),
                action: .respond(ProviderResponse(status: 503))
            )
        ])
        try await RunningProvider.with(settings) { provider throws in
            _ = try await provider.passwordGrant()
            provider.provider.clock.advance(by: .seconds(61))
            _ = try await provider.resource(bearer: "at-1")
            _ = try await provider.resource(bearer: "at-1")
            let entries = provider.provider.journal.entries
            #expect(entries.map(\.sequence) == [1, 2, 3])
            #expect(entries[0].endpoint == .token && entries[0].grant == .password)
            #expect(entries[0].request.formField("username") == "alice")
            #expect(entries[0].at == .zero)
            #expect(entries[1].at == .seconds(61))
            #expect(entries[1].request.bearerToken == "at-1")
            #expect(entries.map(\.response.status) == [200, 200, 503])
            #expect(entries.map(\.appliedRule) == [nil, nil, 0])
        }
    }

    @Test("the journal keeps its newest entries within its capacity")
    func boundedJournal() async throws {
        let journal = Journal(capacity: 2)
        try await RunningProvider.withProvider(MockProvider(journal: journal)) { provider throws in
            for _ in 0..<3 { _ = try await provider.resource(bearer: nil) }
        }
        #expect(journal.entries.map(\.sequence) == [2, 3])
        #expect(journal.droppedCount == 1)
    }
}

@Suite("The token ledger is bounded")
struct BoundedLedgerTests {
    @Test("past its capacity the oldest tokens are forgotten and refused like unknown ones; newer ones still work")
    func forgottenTokens() async throws {
        try await RunningProvider.withProvider(MockProvider(tokenCapacity: 2)) { provider throws in
            // Each password grant issues an access and a refresh token.
            let first = try await provider.passwordGrant()
            let second = try await provider.passwordGrant()
            let oldest = try #require(first.json?["access_token"]?.stringValue)
            let newest = try #require(second.json?["access_token"]?.stringValue)
            #expect(
                provider.provider.issuedTokens.map(\.value) == [
                    newest, try #require(second.json?["refresh_token"]?.stringValue),
                ]
            )
            #expect(try await provider.resource(bearer: oldest).status == 401)
            #expect(try await provider.resource(bearer: newest).status == 200)
            let refresh = try await provider.token(
                [
                    ("grant_type", "refresh_token"),
                    ("refresh_token", try #require(first.json?["refresh_token"]?.stringValue)),
                ],
                basic: provider.settings.client
            )
            #expect(refresh.json?["error"] == .string("invalid_grant"))
        }
    }

    @Test("tokens of both kinds, issued interleaved, are found after the oldest are forgotten; look-alikes never are")
    func interleavedKindsAndLookAlikes() async throws {
        try await RunningProvider.withProvider(MockProvider(tokenCapacity: 3)) { provider throws in
            let client = provider.settings.client
            _ = try await provider.passwordGrant()  // at-1, rt-1
            _ = try await provider.token([("grant_type", "client_credentials")], basic: client)  // at-2
            _ = try await provider.passwordGrant()  // at-3, rt-2
            #expect(provider.provider.issuedTokens.map(\.value) == ["at-2", "at-3", "rt-2"])
            #expect(try await provider.resource(bearer: "at-1").status == 401)
            #expect(try await provider.resource(bearer: "at-2").status == 200)
            #expect(try await provider.resource(bearer: "at-3").status == 200)
            for lookAlike in [
                "at-02", "at-2x", "at-", "at--2", "at-+2", "AT-2", "xt-2", "rt-2", "at-99999999999999999999",
            ] {
                #expect(try await provider.resource(bearer: lookAlike).status == 401, "\(lookAlike)")
            }
            let forgotten = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-1")],
                basic: client
            )
            #expect(forgotten.json?["error"] == .string("invalid_grant"))
            let remembered = try await provider.token(
                [("grant_type", "refresh_token"), ("refresh_token", "rt-2")],
                basic: client
            )
            #expect(remembered.status == 200)
        }
    }
}
