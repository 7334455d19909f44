import Foundation

/// The test hook that shows what `run --isolate` is for: in an isolation worker only,
/// `OAUTH_CONFORMANCE_CRASH_WHILE_JUDGING=<scenario id>` makes the worker trap, as a bug in the
/// harness would, once it has started judging that scenario. A run without `--isolate` never
/// reads the variable.
struct CrashWhileJudging: Sendable {
    static let variable = "OAUTH_CONFORMANCE_CRASH_WHILE_JUDGING"

    private let scenario: String?

    init(environment: [String: String]) {
        scenario = environment[Self.variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    func trap(judging id: String) {
        guard id == scenario else { return }
        fatalError("\(Self.variable) names \(id): crashing on purpose while judging it")
    }
}
