import MockProvider

@testable import OAuthConformance

/// A hand-written test client that only logs in and calls the resource, written as those two
/// functions; every other call it answers unsupported.
protocol LoginAndRequestClient: ClientUnderTest {
    func login(_ grant: GrantType) async -> ClientOutcome
    func request(method: String, url: String) async -> ClientOutcome
}

extension LoginAndRequestClient {
    func perform(_ call: ClientCall) async -> ClientAnswer {
        switch call {
        case .login(let grant): .outcome(await login(grant))
        case .request(let method, let url): .outcome(await request(method: method, url: url))
        default: call.unsupported
        }
    }
}
