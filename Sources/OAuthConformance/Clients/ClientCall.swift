import MockProvider

/// One call of a `concurrently` step.
public enum ClientCall: Sendable, Equatable {
    case login(GrantType)
    case request(method: String, url: String)
    case restart

    public func perform(on client: some ClientUnderTest) async -> ClientOutcome {
        switch self {
        case .login(let grant): await client.login(grant)
        case .request(let method, let url): await client.request(method: method, url: url)
        case .restart: await client.restart()
        }
    }
}
