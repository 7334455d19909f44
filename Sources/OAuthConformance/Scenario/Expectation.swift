/// A statement about the run that a conforming client makes true: one check of `expect:` (or
/// `precondition:`). Its type (under `Checks/Expect/`) reads it from a file, states it and judges
/// it; in Swift each has a constructor that reads like the YAML, such as
/// `.count(.token(grant: .refreshToken), .exactly(1))`, beside the type.
public struct Expectation: Sendable, Equatable {
    let check: any ScenarioCheck

    init(_ check: any ScenarioCheck) {
        self.check = check
    }

    /// What kind of check this is, for report grouping (`failure type` in JUnit).
    public var kind: String { check.kind }

    /// The expectation as a sentence, as reports and `conformance explain` state it.
    public var statement: String { check.statement }

    public static func == (lhs: Expectation, rhs: Expectation) -> Bool {
        lhs.check.isEqual(to: rhs.check)
    }
}
