import Foundation

/// Mutation testing of the suite itself: the reference client must pass every scenario, and
/// every defective client (the reference client with one realistic bug) must fail at least one.
/// A defect no scenario catches is a hole in the suite; a scenario the reference client fails is
/// a wrong scenario or a wrong reference client. Either makes the self-test fail.
public struct Selftest: Sendable {
    public var scenarioRunner: ScenarioRunner
    /// How many scenario runs happen at once, across all clients.
    public var jobs: Int
    public var defects: [DefectiveClient]

    public init(
        scenarioRunner: ScenarioRunner = ScenarioRunner(),
        jobs: Int = 1,
        defects: [DefectiveClient] = DefectiveClient.catalogue
    ) {
        self.scenarioRunner = scenarioRunner
        self.jobs = max(1, jobs)
        self.defects = defects
    }

    /// Runs every scenario against the reference client and each defective client.
    public func run(
        _ scenarios: [Scenario],
        reference: ReferenceClientFactory = ReferenceClientFactory()
    ) async -> SelftestReport {
        let clients: [(factory: ReferenceClientFactory, defect: DefectiveClient?)] =
            [(reference, nil)] + defects.map { ($0.factory, $0) }
        let runs = clients.indices.flatMap { client in scenarios.indices.map { (client, $0) } }
        var results = Array(repeating: [ScenarioResult?](repeating: nil, count: scenarios.count), count: clients.count)
        let runner = scenarioRunner
        await withTaskGroup(of: (Int, Int, ScenarioResult).self) { group in
            var next = 0
            func startNext() {
                guard next < runs.count else { return }
                let (client, scenario) = runs[next]
                next += 1
                let factory = clients[client].factory
                let chosen = scenarios[scenario]
                group.addTask { (client, scenario, await runner.run(chosen, with: factory)) }
            }
            for _ in 0..<jobs { startNext() }
            for await (client, scenario, result) in group {
                results[client][scenario] = result
                startNext()
            }
        }
        let rows = zip(clients, results).map { client, results in
            SelftestRow(client: client.factory.profile.name, defect: client.defect, results: results.compactMap { $0 })
        }
        return SelftestReport(reference: rows[0], defects: Array(rows.dropFirst()))
    }
}

/// One client's results in a self-test.
public struct SelftestRow: Sendable {
    public var client: String
    /// `nil` for the reference client.
    public var defect: DefectiveClient?
    public var results: [ScenarioResult]

    /// The scenarios the client failed: for a defective client, those that caught its bug.
    public var failedScenarios: [String] { results.filter { $0.verdict == .failed }.map(\.scenario.id) }
    /// Scenarios that could not be judged (a hang, a provider that did not start).
    public var erroredScenarios: [String] {
        results.filter { if case .error = $0.verdict { true } else { false } }.map(\.scenario.id)
    }

    /// The reference client passes (or skips) everything; a defective client is caught by a failed check.
    public var isAsExpected: Bool {
        defect == nil ? failedScenarios.isEmpty && erroredScenarios.isEmpty : !failedScenarios.isEmpty
    }

    public var verdict: String {
        switch (defect, isAsExpected) {
        case (nil, true): "passes"
        case (nil, false): "FAILS"
        case (_, true): "caught"
        case (_, false): "NOT CAUGHT"
        }
    }
}

public struct SelftestReport: Sendable {
    public var reference: SelftestRow
    public var defects: [SelftestRow]

    public var caughtCount: Int { defects.count(where: \.isAsExpected) }
    /// Caught defective clients per defective client, in percent (100 with none).
    public var mutationScore: Int { defects.isEmpty ? 100 : caughtCount * 100 / defects.count }
    /// The reference client passes everything and every defective client is caught.
    public var succeeded: Bool { reference.isAsExpected && caughtCount == defects.count }

    /// The table `conformance selftest` prints: client, bug, the scenarios that caught it, verdict.
    public func table(shownScenarios: Int = 2) -> [String] {
        let rows =
            [["client", "bug", "caught by", "verdict"]]
            + ([reference] + defects).map { row in
                [
                    row.client, row.defect?.bug ?? "none (the conforming reference client)",
                    caughtBy(row, shown: shownScenarios), row.verdict,
                ]
            }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { cells in
            (0..<3).map { cells[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                + "  " + cells[3]
        }
    }

    public var summary: String {
        let passed = reference.results.count { $0.verdict == .passed }
        let skipped = reference.results.count { if case .skipped = $0.verdict { true } else { false } }
        return
            "reference client: \(passed) of \(reference.results.count) scenarios passed\(skipped > 0 ? ", \(skipped) skipped" : "")"
            + (reference.isAsExpected
                ? "" : " (failed: \((reference.failedScenarios + reference.erroredScenarios).joined(separator: ", ")))")
            + "; mutation score \(mutationScore)% (\(caughtCount) of \(defects.count) defective clients caught)"
    }

    private func caughtBy(_ row: SelftestRow, shown: Int) -> String {
        guard row.defect != nil else {
            return "\(row.results.count { $0.verdict == .passed }) of \(row.results.count) passed"
        }
        let failed = row.failedScenarios
        guard !failed.isEmpty else { return "no scenario" }
        return failed.prefix(shown).joined(separator: ", ")
            + (failed.count > shown ? " (+\(failed.count - shown) more)" : "")
    }
}
