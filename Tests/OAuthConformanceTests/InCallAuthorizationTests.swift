import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The runner's seam for a call that needs the user again (`ClientAnswer.needsAuthorization`,
/// MCP's step-up inside a call): the browser visits each URL the client names, the completion's
/// answer is the call's, and a client that asks without end gets a verdict, not a hang.
@Suite("An authorization inside a call: the harness plays the browser, a bounded number of times")
struct InCallAuthorizationTests {
    /// A client whose every `request` needs the user `asks` times before it answers (forever
    /// when `nil`); it keeps the redirects it was handed. Its answer is a refusal: it calls no
    /// resource, and a success the resource did not give would fail the run's truth check.
    actor AskingClient: ClientUnderTest {
        let environment: ClientEnvironment
        let asks: Int?
        private(set) var redirects: [String] = []

        init(environment: ClientEnvironment, asks: Int?) {
            self.environment = environment
            self.asks = asks
        }

        func perform(_ call: ClientCall) async -> ClientAnswer {
            switch call {
            case .request: return authorizeOrAnswer()
            case .completeAuthorization(let redirect):
                redirects.append(redirect)
                return authorizeOrAnswer()
            default: return call.unsupported
            }
        }

        func shutdown() async {}

        private func authorizeOrAnswer() -> ClientAnswer {
            if let asks, redirects.count >= asks {
                return .outcome(
                    .failure(ClientFailure(.oauthError, oauthError: "insufficient_scope", message: "refused"))
                )
            }
            var url = URLComponents(string: environment.endpoints.authorization)
            url?.queryItems = [
                URLQueryItem(name: "response_type", value: "code"),
                URLQueryItem(name: "client_id", value: environment.client.id),
                URLQueryItem(name: "redirect_uri", value: environment.redirectURI),
                URLQueryItem(name: "state", value: "state-\(redirects.count + 1)"),
            ]
            return .needsAuthorization(url: url?.string ?? "")
        }
    }

    final class AskingClientFactory: ClientFactory, @unchecked Sendable {
        let asks: Int?
        var profile = ReferenceClientFactory().profile
        private(set) var made: AskingClient?

        init(asks: Int?) { self.asks = asks }

        func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
            let client = AskingClient(environment: environment, asks: asks)
            made = client
            return client
        }
    }

    static func scenario(outcome: String, authorizations: Int) throws -> Scenario {
        try Fixtures.scenario(
            """
            conformance: 1
            id: t/in-call
            title: t
            area: retry
            level: MUST
            steps:
              - request: GET /resource
                outcome: \(outcome)
            expect:
              - count: { endpoint: authorize, exactly: \(authorizations) }
            """
        )
    }

    @Test(
        "a call that needs the user twice: the browser visits both URLs, the completions get the redirects, the last answer is the call's"
    )
    func twice() async throws {
        let factory = AskingClientFactory(asks: 2)
        let result = await ScenarioRunner().run(
            try Self.scenario(outcome: "{ error: { category: oauth_error } }", authorizations: 2),
            with: factory
        )
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
        let redirects = await factory.made?.redirects ?? []
        #expect(redirects.count == 2)
        #expect(redirects.allSatisfy { $0.contains("code=") })
        #expect(redirects.last?.contains("state=state-2") == true)
        guard case .failure(let failure)? = result.step(1)?.result.clientOutcomes.first else {
            Issue.record("the step did not end in the client's answer")
            return
        }
        #expect(failure.message == "refused; the user authorized 2 times within the call")
    }

    @Test("a client that asks without end: three authorizations, the fourth declined, and a failure that is no refusal")
    func forever() async throws {
        let factory = AskingClientFactory(asks: nil)
        let result = await ScenarioRunner().run(
            try Self.scenario(outcome: "{ error: {} }", authorizations: 3),
            with: factory
        )
        #expect(result.verdict == .failed)
        #expect(result.failedChecks.count == 1, "\(result.failedChecks.map(\.summary))")
        let redirects = await factory.made?.redirects ?? []
        #expect(redirects.count == InCallAuthorization.mostPerCall + 1)
        #expect(redirects.last?.contains("error=access_denied") == true)
        #expect(redirects.last?.contains("state=state-4") == true)
        guard case .failure(let failure)? = result.step(1)?.result.clientOutcomes.first else {
            Issue.record("the step did not fail")
            return
        }
        #expect(failure.category == .unexpected)
        #expect(failure.message.contains("the harness allows 3 per call"))
    }

    @Test(
        "a step that expects authorization_required has nobody at the browser: the client's first ask is that outcome, declined, and nothing reaches the authorization endpoint"
    )
    func userAway() async throws {
        let factory = AskingClientFactory(asks: 1)
        let result = await ScenarioRunner().run(
            try Self.scenario(outcome: "{ error: authorization_required }", authorizations: 0),
            with: factory
        )
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
        let redirects = await factory.made?.redirects ?? []
        #expect(redirects.count == 1)
        #expect(redirects.first?.contains("error=access_denied") == true)
        guard case .failure(let failure)? = result.step(1)?.result.clientOutcomes.first else {
            Issue.record("the step did not fail")
            return
        }
        #expect(failure.category == .authorizationRequired)
    }

    @Test(
        "on the wire: authorization_url answers a request or a completion; among a concurrently answer's outcomes it is that operation's failure"
    )
    func wire() throws {
        let asking = AdapterReply(
            id: 1,
            members: ["ok": .bool(true), "authorization_url": .string("https://as/authorize")]
        )
        let call = ClientCall.mcpCall(method: "tools/call", url: "http://127.0.0.1:1/mcp")
        #expect(try asking.answer(to: call).get() == .needsAuthorization(url: "https://as/authorize"))
        #expect(
            try asking.answer(to: .completeAuthorization(redirectURL: "x")).get()
                == .needsAuthorization(url: "https://as/authorize")
        )
        #expect(ClientAnswer.needsAuthorization(url: "https://as/authorize").replyMembers == asking.members)
        let batch = AdapterReply(
            id: 2,
            members: [
                "ok": .bool(true),
                "outcomes": .array([
                    .object(asking.members),
                    .object(["ok": .bool(true), "status": .integer(200), "body": .string("")]),
                ]),
            ]
        )
        let outcomes = try batch.outcomes(count: 2).get()
        #expect(outcomes.first?.failure?.category == .unexpected)
        #expect(outcomes.last == .success(status: 200, body: ""))
    }

    @Test("the decline goes to the request's redirect_uri with its state; a URL without redirect_uri gets none")
    func denial() {
        let denial = InCallAuthorization.denial(
            of: "https://as.example/authorize?client_id=c&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb&state=s%201"
        )
        #expect(
            denial
                == "http://127.0.0.1:9/cb?error=access_denied&error_description=the%20user%20declined%20another%20authorization&state=s%201"
        )
        #expect(InCallAuthorization.denial(of: "https://as.example/authorize?client_id=c") == nil)
    }
}
