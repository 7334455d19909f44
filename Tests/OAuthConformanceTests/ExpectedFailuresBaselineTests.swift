import Foundation
import Testing

@testable import OAuthConformance

/// What `conformance baseline` decides from a run, and how it writes that into a profile's text.
@Suite("Expected failures from a run")
struct ExpectedFailuresBaselineTests {
    static func run(_ verdicts: [(String, VerdictRecord)]) -> ConformanceResult {
        ConformanceResult(
            client: ClientRecord(
                name: "mylib",
                version: "1",
                capabilities: [],
                refreshWindow: nil,
                profileFile: "p.yaml"
            ),
            startedAt: Date(timeIntervalSince1970: 0),
            milliseconds: 0,
            scenarios: verdicts.map { id, verdict in
                ScenarioRecord(
                    id: id,
                    title: id,
                    area: "errors",
                    level: "MUST",
                    spec: [],
                    verdict: verdict,
                    milliseconds: 0,
                    checks: verdict == .failed
                        ? [
                            CheckResult(
                                kind: "count",
                                statement: "one refresh",
                                passed: false,
                                level: .must,
                                expected: "1",
                                observed: "2"
                            ),
                            CheckResult(
                                kind: "never",
                                statement: "no retry",
                                passed: false,
                                level: .should,
                                expected: "",
                                observed: ""
                            ),
                        ] : []
                )
            }
        )
    }

    static let profile = """
        profile: 1
        adapter: { command: [python3, a.py] }
        capabilities: []
        expected_failures:
          - scenario: errors/token-error-surfaced/*   # every row
            reason: the code is only in the message
          - scenario: errors/gone
            reason: fixed upstream
        """ + "\n"

    @Test("a pattern covering passing rows is narrowed to the failing ones, keeping its reason; a pass is dropped")
    func patternNarrowed() throws {
        let entries = [
            ExpectedFailure(scenario: "errors/token-error-surfaced/*", reason: "the code is only in the message"),
            ExpectedFailure(scenario: "errors/gone", reason: "fixed upstream"),
        ]
        let baseline = ExpectedFailuresBaseline(
            current: entries,
            run: Self.run([
                ("errors/token-error-surfaced/a", .expectedFailure), ("errors/token-error-surfaced/b", .passed),
                ("errors/token-error-surfaced/c", .error), ("errors/gone", .passed), ("errors/new", .failed),
                ("errors/broken", .error), ("errors/below", .toleratedFailure),
            ])
        )
        #expect(
            baseline.updated == [
                ExpectedFailure(scenario: "errors/token-error-surfaced/a", reason: "the code is only in the message"),
                ExpectedFailure(scenario: "errors/token-error-surfaced/c", reason: "the code is only in the message"),
                ExpectedFailure(scenario: "errors/new", reason: "MUST: one refresh"),
            ]
        )
        #expect(baseline.errors == ["errors/broken"])
        let text = try ExpectedFailuresEditor.rewrite(Self.profile, file: "p.yaml", as: baseline)
        #expect(
            text == """
                profile: 1
                adapter: { command: [python3, a.py] }
                capabilities: []
                expected_failures:
                  - scenario: errors/token-error-surfaced/a
                    reason: the code is only in the message
                  - scenario: errors/token-error-surfaced/c
                    reason: the code is only in the message
                  - scenario: errors/new
                    reason: 'MUST: one refresh'

                """
        )
    }

    @Test("a list written in flow style, or none at all, becomes a block list; an emptied list stays valid")
    func otherLayouts() throws {
        let failing = Self.run([("errors/new", .failed)])
        let none = "profile: 1\nadapter: { command: [python3, a.py] }\ncapabilities: []\n"
        #expect(
            try ExpectedFailuresEditor.rewrite(
                none,
                file: "p.yaml",
                as: ExpectedFailuresBaseline(current: [], run: failing)
            )
                == none + "expected_failures:\n  - scenario: errors/new\n    reason: 'MUST: one refresh'\n"
        )
        let flow = none + "expected_failures: [{ scenario: errors/old, reason: gone }]   # flow\n"
        let passing = Self.run([("errors/old", .passed)])
        let emptied = ExpectedFailuresBaseline(
            current: [ExpectedFailure(scenario: "errors/old", reason: "gone")],
            run: passing
        )
        #expect(
            try ExpectedFailuresEditor.rewrite(flow, file: "p.yaml", as: emptied) == none + "expected_failures: []\n"
        )
        let block = Self.profile
        let allPass = Self.run([("errors/token-error-surfaced/a", .passed), ("errors/gone", .passed)])
        let entries = AdapterProfileLoader.decode(block, file: "p.yaml").profile?.expectedFailures ?? []
        #expect(entries.count == 2)
        #expect(
            try ExpectedFailuresEditor.rewrite(
                block,
                file: "p.yaml",
                as: ExpectedFailuresBaseline(current: entries, run: allPass)
            )
                == none + "expected_failures: []\n"
        )
    }
}
