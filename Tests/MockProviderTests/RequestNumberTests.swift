import MockProvider
import Testing

/// The number a scenario gives a request (`hold_until_request: N`): its journal sequence, with a
/// sign-in in the client's own way counted as one request, whatever it made.
@Suite("Request numbers")
struct RequestNumberTests {
    func provider(afterSignInOf requests: Int) -> MockProvider {
        let provider = MockProvider(settings: ProviderSettings())
        for _ in 0..<requests { _ = provider.handle(ProviderRequest(method: "GET", target: "/jwks")) }
        provider.countSignInAsOneRequest(madeRequests: requests)
        _ = provider.handle(ProviderRequest(method: "GET", target: "/resource"))
        return provider
    }

    @Test(
        "the first request after a sign-in is no. 2 whether the sign-in made one request, three (OpenID Connect) or none (saved tokens)",
        arguments: [1, 3, 0]
    )
    func signInCountsAsOne(requests: Int) {
        let provider = provider(afterSignInOf: requests)
        #expect(provider.requestNumber == 2)
        #expect(provider.journal.lastSequence == requests + 1)
    }

    @Test("without a sign-in of the client's own, a request's number is its journal sequence")
    func plainSequence() {
        let provider = MockProvider(settings: ProviderSettings())
        for _ in 0..<3 { _ = provider.handle(ProviderRequest(method: "GET", target: "/resource")) }
        #expect(provider.requestNumber == 3)
    }
}
