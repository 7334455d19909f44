import Foundation

/// The machine-readable result of one run against one client, as `conformance run --json`
/// writes it (format 1, described in docs/ci/json-result.md). It holds everything the other reports need,
/// so `conformance report` can merge results from several jobs and render them again.
/// The records mirror the runner's types (`ScenarioResult`, `CheckResult`) on purpose: they are
/// a file format other programs read, which must not change when the runner's types do.
public struct ConformanceResult: Codable, Sendable, Equatable {
    /// The format this harness writes; a file with another number is refused, not misread.
    public static let currentFormat = 1

    public var format: Int
    public var harnessVersion: String
    public var client: ClientRecord
    public var seed: UInt64
    /// `i/n` when the run covered one part of a suite split across jobs.
    public var shard: String?
    public var startedAt: Date
    public var milliseconds: Int
    /// The run was stopped (SIGINT, SIGTERM) before every scenario finished.
    public var interrupted: Bool
    public var scenarios: [ScenarioRecord]

    public init(
        format: Int = currentFormat,
        harnessVersion: String = Harness.version,
        client: ClientRecord,
        seed: UInt64 = 0,
        shard: String? = nil,
        startedAt: Date,
        milliseconds: Int,
        interrupted: Bool = false,
        scenarios: [ScenarioRecord]
    ) {
        self.format = format
        self.harnessVersion = harnessVersion
        self.client = client
        self.seed = seed
        self.shard = shard
        self.startedAt = startedAt
        self.milliseconds = milliseconds
        self.interrupted = interrupted
        self.scenarios = scenarios
    }

    public func count(_ verdict: VerdictRecord) -> Int {
        scenarios.count { $0.verdict == verdict }
    }

    /// `2 passed, 1 failed, 0 skipped, 0 errors`, then `, 3 expected failures` and `, 1 tolerated
    /// failures` when there are any.
    public var tally: String {
        shownVerdicts.map { "\(count($0)) \($0.plural)" }.joined(separator: ", ")
    }

    /// The verdicts reports count in columns: expected and tolerated failures only when the run has some.
    public var shownVerdicts: [VerdictRecord] {
        VerdictRecord.allCases.filter { !$0.isShownOnlyWhenPresent || count($0) > 0 }
    }

    /// No failures and no errors; skipped scenarios do not spoil a run.
    public var conforms: Bool { count(.failed) == 0 && count(.error) == 0 }

    /// Scenarios by area, areas in the harness's order (refresh, retry, …), unknown ones after.
    public var scenariosByArea: [(area: String, scenarios: [ScenarioRecord])] {
        let grouped = Dictionary(grouping: scenarios, by: \.area)
        return grouped.keys.sorted(by: Self.areaOrder).map { ($0, grouped[$0] ?? []) }
    }

    static func areaOrder(_ first: String, _ second: String) -> Bool {
        let known = Area.allCases.map(\.rawValue)
        switch (known.firstIndex(of: first), known.firstIndex(of: second)) {
        case let (a?, b?): return a < b
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return first < second
        }
    }
}

/// The client a result is about, as its profile declares it.
public struct ClientRecord: Codable, Sendable, Equatable, Hashable {
    public var name: String
    public var version: String
    public var capabilities: [String]
    /// `60s`, or absent when the client declares no proactive refresh window.
    public var refreshWindow: String?
    /// The profile file, or absent for a profile built into the harness.
    public var profileFile: String?
    /// The behaviour families the library leaves to the application; absent when none.
    public var applicationPart: [ApplicationPart]?

    public init(
        name: String,
        version: String,
        capabilities: [String],
        refreshWindow: String?,
        profileFile: String? = nil,
        applicationPart: [ApplicationPart]? = nil
    ) {
        self.name = name
        self.version = version
        self.capabilities = capabilities
        self.refreshWindow = refreshWindow
        self.profileFile = profileFile
        self.applicationPart = applicationPart
    }

    /// `reference 0.1.0`.
    public var label: String { "\(name) \(version)" }
}

public struct ScenarioRecord: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var area: String
    /// The behaviour family the scenario names (`proactive-refresh`); absent when it names none.
    public var family: String?
    /// How the client signed in where the sign-in was its own (`sign_in: any`), e.g.
    /// `authorization_code`; absent for a scenario that names its sign-in, or one that did not run.
    public var signIn: String?
    public var level: String
    public var spec: [String]
    public var file: String?
    public var verdict: VerdictRecord
    /// Why it was skipped, or what went wrong for an error; for an expected failure, the reason
    /// the profile gives.
    public var reason: String?
    /// For an expected failure, the probe that confirms its reason without the harness
    /// (`.venv/bin/python probes/null_refresh_token.py`, run from the profile's folder); absent
    /// when the profile names none.
    public var probe: String?
    public var milliseconds: Int
    public var checks: [CheckRecord]
    /// The timeline in virtual time, one line a step or request; requests behind a failed check
    /// are marked with `>`. Absent when the scenario never ran.
    public var timeline: [String]?
    /// What the client printed while it ran, when that was captured.
    public var clientOutput: String?

    public init(
        id: String,
        title: String,
        area: String,
        family: String? = nil,
        signIn: String? = nil,
        level: String,
        spec: [String],
        file: String? = nil,
        verdict: VerdictRecord,
        reason: String? = nil,
        probe: String? = nil,
        milliseconds: Int,
        checks: [CheckRecord] = [],
        timeline: [String]? = nil,
        clientOutput: String? = nil
    ) {
        self.id = id
        self.title = title
        self.area = area
        self.family = family
        self.signIn = signIn
        self.level = level
        self.spec = spec
        self.file = file
        self.verdict = verdict
        self.reason = reason
        self.probe = probe
        self.milliseconds = milliseconds
        self.checks = checks
        self.timeline = timeline
        self.clientOutput = clientOutput
    }

    public var failedChecks: [CheckRecord] { checks.filter { !$0.passed } }

    /// The strictest level among the failed checks: what the scenario fails at.
    public var failingLevel: Level? { Level.strictest(failedChecks.compactMap(\.level)) }

    /// What the scenario asks, what went wrong, and the timeline: the text of a failure or an
    /// error in every report. Each failed check names its level.
    public var explanation: String {
        var lines = [title, "level: \(level); spec: \(spec.joined(separator: ", "))"]
        if let signIn {
            lines.append("signed in by: \(signIn) (sign_in: any, the first way the client declares that fits)")
        }
        if verdict == .error, let reason { lines.append("error: \(reason)") }
        if verdict == .inconclusive, let reason { lines.append("inconclusive: \(reason)") }
        if let failingLevel {
            lines.append(
                "fails at: \(failingLevel.rawValue)"
                    + (verdict == .toleratedFailure ? " (\(reason ?? "tolerated"))" : "")
            )
        }
        for check in failedChecks {
            lines += [
                "", "✗ \(check.leveledStatement)", "  expected: \(check.expected)", "  observed: \(check.observed)",
            ]
        }
        if let timeline {
            lines += ["", "timeline (virtual time; > marks the requests behind the failure):"] + timeline
        }
        return lines.joined(separator: "\n")
    }
}

public enum VerdictRecord: String, Codable, Sendable, CaseIterable {
    case passed, failed, skipped, error
    /// The client never reached the situation the scenario is about: no verdict on the behaviour.
    case inconclusive
    /// Failed as the client's profile says it will (`expected_failures`): not held against it.
    case expectedFailure = "expected_failure"
    /// Failed only checks below the run's `--fail-on` level: shown with what failed, not held against it.
    case toleratedFailure = "tolerated_failure"

    /// `errors`, `expected failures`: how a count of them reads.
    public var plural: String {
        switch self {
        case .error: "errors"
        case .expectedFailure: "expected failures"
        case .toleratedFailure: "tolerated failures"
        case .passed, .failed, .skipped, .inconclusive: rawValue
        }
    }

    /// `PASS`, `XFAIL`: the verdict in a cell of the HTML matrix or the clients table.
    public var label: String {
        switch self {
        case .passed: "PASS"
        case .failed: "FAIL"
        case .skipped: "SKIP"
        case .error: "ERROR"
        case .expectedFailure: "XFAIL"
        case .toleratedFailure: "WARN"
        case .inconclusive: "INCONC"
        }
    }

    /// A failure, whether or not the run holds it against the client: what a reader asking
    /// "does this client get it right?" counts as wrong.
    public var isFailure: Bool { self == .failed || self == .expectedFailure || self == .toleratedFailure }

    /// Counted in a column of their own only when a run has some; the first four always are.
    public var isShownOnlyWhenPresent: Bool {
        self == .expectedFailure || self == .toleratedFailure || self == .inconclusive
    }
}

/// A check as a result file records it: the same fields the run judged, read back unchanged.
public typealias CheckRecord = CheckResult

extension CheckResult {
    /// `number of token requests is at most 1 [SHOULD]`: the statement with the level it was judged at.
    public var leveledStatement: String {
        statement + (level.map { " [\($0.rawValue)]" } ?? "")
    }
}
