/// A scenario a client is known to fail, as its profile lists it.
public struct ExpectedFailure: Sendable, Equatable {
    /// A scenario id; `*` matches any run of characters, so `errors/token-error-surfaced/*`
    /// covers every row of a matrix.
    public var scenario: String
    /// Why it fails: the known gap, for the report.
    public var reason: String
    /// The program that confirms the reason without the harness (`probe:`, run from the
    /// profile's folder): it drives the library against a throwaway server of its own and exits
    /// 0 when the library does what the reason says. The public table publishes a reason only
    /// with its probe.
    public var probe: ProbeCommand?

    public init(scenario: String, reason: String, probe: ProbeCommand? = nil) {
        self.scenario = scenario
        self.reason = reason
        self.probe = probe
    }

    public func matches(_ id: String) -> Bool {
        Self.matches(Substring(scenario), Substring(id))
    }

    private static func matches(_ pattern: Substring, _ text: Substring) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" {
            let rest = pattern.dropFirst()
            var tail = text
            while true {
                if matches(rest, tail) { return true }
                guard !tail.isEmpty else { return false }
                tail = tail.dropFirst()
            }
        }
        guard let character = text.first, character == first else { return false }
        return matches(pattern.dropFirst(), text.dropFirst())
    }
}
