import MockProvider

/// A validated scenario: how the provider misbehaves, what the client is asked to do,
/// and what a conforming client must have done.
public struct Scenario: Sendable, Equatable {
    public var id: String
    public var title: String
    public var summary: String?
    public var area: Area
    public var level: Level
    /// Where the requirement comes from, e.g. "RFC 6749 §6".
    public var spec: [String]
    /// Free-form labels for selecting scenarios (`conformance list --tag`), e.g. "rotation".
    public var tags: [String]
    /// Capabilities a client must declare; a client without them gets a skipped result.
    public var requires: [Capability]
    public var provider: ProviderSettings
    public var steps: [Step]
    public var expectations: [Expectation]
    /// The matrix combination this scenario was made from, e.g. `["code": "invalid_grant"]`;
    /// empty for a scenario without a matrix.
    public var parameters: [String: String]
    /// The file the scenario came from, when it came from one.
    public var file: String?

    public init(
        id: String, title: String, summary: String? = nil, area: Area, level: Level, spec: [String] = [], tags: [String] = [],
        requires: [Capability] = [], provider: ProviderSettings = .init(), steps: [Step], expectations: [Expectation],
        parameters: [String: String] = [:], file: String? = nil
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.area = area
        self.level = level
        self.spec = spec
        self.tags = tags
        self.requires = requires
        self.provider = provider
        self.steps = steps
        self.expectations = expectations
        self.parameters = parameters
        self.file = file
    }
}

public enum Area: String, Sendable, Hashable, CaseIterable {
    case refresh, retry, errors, concurrency, security, tls
}

/// How strongly the spec asks for the behaviour. POLICY checks take the client's declared value.
public enum Level: String, Sendable, Hashable, CaseIterable {
    case must = "MUST"
    case should = "SHOULD"
    case policy = "POLICY"

    /// What the level means for a client that fails the scenario.
    public var meaning: String {
        switch self {
        case .must: "the specification requires it"
        case .should: "strong practice in mature client libraries"
        case .policy: "libraries differ; the check takes the value the client declares in its profile"
        }
    }
}

/// What a client declares it can do, in its profile.
public enum Capability: String, Sendable, Hashable, CaseIterable {
    /// Refreshes an access token before it expires, inside a declared window.
    case proactiveRefresh = "proactive_refresh"
    /// On a 401 `invalid_token`, refreshes once and replays the request once.
    case refreshOn401 = "refresh_on_401"
}
