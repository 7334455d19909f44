/// Every check a scenario can state, one type each: the decoder finds a check's type here by its
/// key, and a test holds the JSON Schema's keys equal to these. The order is the one diagnostics
/// list the keys in.
enum CheckRegistry {
    static let checks: [any ScenarioCheck.Type] = [
        EveryStepCheck.self,
        CountCheck.self,
        RequestCheck.self,
        FirstArrivalCheck.self,
        OrderCheck.self,
        NeverCheck.self,
        ErrorMessagesCheck.self,
        DistinctCheck.self,
        SameUserCheck.self,
        SpacingCheck.self,
        PollingCheck.self,
        ClientErrorsCheck.self,
    ]

    /// The checks' keys, e.g. `count`: an item of `expect:` has exactly one of them.
    static let keys = checks.map { $0.key }

    /// The keys that go beside one check's own, e.g. `within` beside `first`.
    static let companionKeys = checks.flatMap { $0.companionKeys }

    /// The check type with this key, if any has it.
    static func check(forKey key: String) -> (any ScenarioCheck.Type)? {
        checks.first { $0.key == key }
    }
}
