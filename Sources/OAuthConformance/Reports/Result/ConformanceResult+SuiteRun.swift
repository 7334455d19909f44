import Foundation

/// The step from a run in memory to the result every report renders.
extension ConformanceResult {
    public init(_ run: SuiteRun) {
        self.init(
            client: ClientRecord(run.profile, profileFile: run.profileFile),
            seed: run.seed,
            shard: run.shard,
            startedAt: run.startedAt,
            wallTime: run.wallTime,
            interrupted: run.interrupted,
            scenarios: run.results.map(ScenarioRecord.init)
        )
    }

    /// A run's result from its parts, its times as every report keeps them.
    public init(
        client: ClientRecord,
        seed: UInt64 = 0,
        shard: Shard?,
        startedAt: Date,
        wallTime: Duration,
        interrupted: Bool,
        scenarios: [ScenarioRecord]
    ) {
        self.init(
            client: client,
            seed: seed,
            shard: shard?.description,
            // Whole seconds: what the JSON file and the JUnit timestamp keep, so a result reads back equal.
            startedAt: Date(timeIntervalSince1970: startedAt.timeIntervalSince1970.rounded(.down)),
            milliseconds: wallTime.wholeMilliseconds,
            interrupted: interrupted,
            scenarios: scenarios
        )
    }
}

extension ClientRecord {
    /// What a client's profile declares, as results record it.
    public init(_ profile: ClientProfile, profileFile: String?) {
        self.init(
            name: profile.name,
            version: profile.version,
            capabilities: profile.capabilities.map(\.rawValue).sorted(),
            refreshWindow: profile.refreshWindow.map(DurationText.format),
            profileFile: profileFile,
            applicationPart: profile.applicationPart.isEmpty ? nil : profile.applicationPart
        )
    }
}

extension ScenarioRecord {
    public init(_ result: ScenarioResult) {
        let scenario = result.scenario
        let (verdict, reason): (VerdictRecord, String?) =
            switch result.verdict {
            case .passed: (.passed, nil)
            case .failed: (.failed, nil)
            case .skipped(let reason): (.skipped, reason)
            case .inconclusive(let reason): (.inconclusive, reason)
            case .error(let problem): (.error, problem)
            case .expectedFailure(let reason): (.expectedFailure, reason)
            case .toleratedFailure(let reason): (.toleratedFailure, reason)
            }
        let evidence = Set(result.failedChecks.flatMap(\.evidence))
        self.init(
            id: scenario.id,
            title: scenario.title,
            area: scenario.area.rawValue,
            family: scenario.family?.id,
            signIn: result.signInMethod?.rawValue,
            level: scenario.level.rawValue,
            spec: scenario.spec,
            file: scenario.file,
            verdict: verdict,
            reason: reason,
            probe: result.probe?.text,
            milliseconds: result.wallTime.wholeMilliseconds,
            checks: result.checks,
            timeline: result.transcript.map { TimelineText.lines(for: $0, marking: evidence) },
            clientOutput: result.transcript?.clientOutput
        )
    }
}

extension Duration {
    /// Whole milliseconds, rounded; what reports show.
    var wholeMilliseconds: Int { Int((seconds * 1000).rounded()) }
}
