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
}
