import MockProvider
import Testing

@testable import OAuthConformance

/// A timeline is evidence: it must show what the client met on the wire, not what the provider
/// meant to send before a transport fault replaced it.
@Suite("Timelines show what reached the client")
struct TimelineTruthTests {
    @Test("an answer replaced by garbage, a reset or a close reads as that fault, naming what was not delivered")
    func faultsReplaceTheAnswer() async throws {
        let scenario = try Fixtures.builtInScenario("errors/transport-fault-on-refresh/garbage")
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        let transcript = try #require(result.transcript)
        let lines = TimelineText.lines(for: transcript)
        let refreshes = lines.filter { $0.contains("grant_type=refresh_token") }
        #expect(!refreshes.isEmpty)
        // The scripted refresh answers never reached the client: each says so before what it held back.
        let faulted = refreshes.filter { $0.contains("[rule 1]") }
        #expect(!faulted.isEmpty, "\(lines)")
        for line in faulted {
            #expect(line.contains("→ garbage, then closed, instead of 200 access_token="), "\(line)")
        }
    }

    @Test("a delayed answer still reads as the answer, with how it travelled")
    func delaysKeepTheAnswer() {
        #expect(TimelineText.delivered("200", by: .immediate) == "200")
        #expect(
            TimelineText.delivered("200", by: .heldUntilRequest(3)) == "200 (held until request no. 3 arrived)"
        )
        #expect(TimelineText.delivered("200", by: .reset) == "connection reset, instead of 200")
    }

    @Test("a token request shows how the client authenticated, HTTP Basic with its secret masked")
    func clientAuthenticationShown() async throws {
        let scenario = try Fixtures.builtInScenario("retry/401-on-valid-token-refreshes-once-and-replays")
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        let lines = TimelineText.lines(for: try #require(result.transcript))
        let client = scenario.provider.client
        let tokenRequests = lines.filter { $0.contains("POST /token") }
        #expect(!tokenRequests.isEmpty)
        for line in tokenRequests {
            #expect(line.contains("POST /token Basic \(client.id):*** grant_type="), "\(line)")
            #expect(!line.contains(client.secret), "\(line)")
        }
        let basic = try #require(
            result.transcript?.journal.first { $0.endpoint == .token }?.request.header("Authorization")
        )
        #expect(!lines.joined().contains(basic.dropFirst("Basic ".count)))
    }

    @Test("an answer shows the headers the client is judged on: Retry-After, and Location of a token endpoint redirect")
    func judgedResponseHeadersShown() async throws {
        let retry = try Fixtures.builtInScenarios().first { $0.id.hasPrefix("errors/retry-after-honoured/") }
        let waited = await ScenarioRunner().run(try #require(retry), with: ReferenceClientFactory())
        let waitedLines = TimelineText.lines(for: try #require(waited.transcript))
        #expect(waitedLines.contains { $0.contains("Retry-After: ") }, "\(waitedLines)")

        let redirect = try Fixtures.builtInScenario("security/token-endpoint-redirect-gets-no-secrets/307")
        let redirected = await ScenarioRunner().run(redirect, with: ReferenceClientFactory())
        let redirectedLines = TimelineText.lines(for: try #require(redirected.transcript))
        #expect(redirectedLines.contains { $0.contains("→ 307 Location: ") }, "\(redirectedLines)")
    }
}
