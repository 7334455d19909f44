import Foundation
import Testing

@testable import OAuthConformance

@Suite("JSON results, shards and merging")
struct JSONResultTests {
    static func record(_ id: String, _ verdict: VerdictRecord = .passed, area: String = "refresh") -> ScenarioRecord {
        ScenarioRecord(
            id: id,
            title: "title of \(id)",
            area: area,
            level: "MUST",
            spec: ["RFC 6749 §6"],
            verdict: verdict,
            milliseconds: 5
        )
    }

    static func result(
        _ ids: [String],
        client: String = "reference",
        shard: String? = nil,
        seed: UInt64 = 0,
        startedAt: Date = Date(timeIntervalSince1970: 1_800_000_000)
    ) -> ConformanceResult {
        ConformanceResult(
            client: ClientRecord(name: client, version: "1.0", capabilities: ["refresh_on_401"], refreshWindow: "60s"),
            seed: seed,
            shard: shard,
            startedAt: startedAt,
            milliseconds: 1500,
            scenarios: ids.map { record($0) }
        )
    }

    /// A result file whose numbers are markers, to be replaced one at a time.
    static func resultFileWithMarkers() -> String {
        var first = record("refresh/one")
        first.milliseconds = 434_343
        first.checks = [
            CheckResult(
                kind: "count",
                statement: "one",
                passed: true,
                expected: "1",
                observed: "1",
                evidence: [464_646]
            )
        ]
        var run = result([], seed: 454_545)
        run.milliseconds = 424_242
        run.scenarios = [first, record("refresh/two")]
        return JSONReport.render(run)
    }

    @Test("a run's JSON result reads back equal, with its format, client, verdicts, checks and timelines")
    func roundTrip() async throws {
        let result = ConformanceResult(try await JUnitReportTests.mixedRun())
        let json = JSONReport.render(result)
        #expect(json.contains(#""format" : 1"#))
        #expect(json.contains(#""harness_version" : ""#))
        #expect(json.contains(#""refresh_window" : "1m""#))
        let read = try JSONReport.read(Data(json.utf8), from: "result.json")
        #expect(read == result)
        let failed = try #require(read.scenarios.first { $0.verdict == .failed })
        #expect(failed.failedChecks.first?.expected == "access_token#2 (at-2)")
        #expect(failed.timeline?.contains(">   t=+0s  #4 GET /resource Bearer at-1 → 200") == true)
        #expect(read.scenarios.first { $0.verdict == .skipped }?.reason == "the client does not declare refresh_on_401")
    }

    @Test(
        "files that are not format 1 results are refused with the reason",
        arguments: [
            (#"{"format": 2}"#, "result format 2 is not supported; this harness reads format 1"),
            ("<testsuites/>", #"not a conformance result (a JSON object with "format": 1 is expected)"#),
            (
                #"{"format": 1, "harness_version": "0.1.0", "client": {"name": "x"}}"#,
                "not a valid format 1 result: missing .client.version"
            ),
            (
                #"{"format": 1, "harness_version": 7}"#,
                "not a valid format 1 result: .harness_version: Expected to decode String but found number instead."
            ),
        ]
    )
    func refusesOtherFiles(_ text: String, _ message: String) {
        #expect(throws: ResultFileProblem(file: "x.json", message: message)) {
            _ = try JSONReport.read(Data(text.utf8), from: "x.json")
        }
    }

    @Test("shards split the suite by sorted id: disjoint, complete, whatever order the files load in")
    func shardPartition() throws {
        let ids = ["retry/b", "refresh/a", "errors/c", "refresh/d", "retry/e", "tls/f", "security/g"]
        let scenarios = ids.map {
            Scenario(id: $0, title: $0, area: .refresh, level: .must, steps: [], expectations: [])
        }
        let shards = try (1...3).map { try #require(Shard(index: $0, count: 3)) }
        let parts = shards.map { $0.select(scenarios).map(\.id) }
        // Sorted: errors/c refresh/a refresh/d retry/b retry/e security/g tls/f; kept in load order.
        #expect(parts == [["retry/b", "errors/c", "tls/f"], ["refresh/a", "retry/e"], ["refresh/d", "security/g"]])
        #expect(shards.map { Set($0.select(scenarios.reversed()).map(\.id)) } == parts.map(Set.init))
        #expect(Shard("2/3") == shards[1])
        #expect(shards[1].description == "2/3")
    }

    @Test("shard text is i/n with 1 ≤ i ≤ n", arguments: ["0/2", "3/2", "1/0", "a/b", "1/2/3", "", "1"])
    func invalidShards(_ text: String) {
        #expect(Shard(text) == nil)
    }

    @Test("merging: a client's shards become one result; other clients stay apart, in order")
    func mergesShards() throws {
        let first = Self.result(["refresh/a", "retry/c"], shard: "1/2")
        let second = Self.result(["refresh/b"], shard: "2/2", startedAt: first.startedAt.addingTimeInterval(2))
        let other = Self.result(["refresh/a"], client: "other")
        let merged = try ResultMerge.merge([("1.json", first), ("o.json", other), ("2.json", second)])
        #expect(merged.map(\.client.name) == ["reference", "other"])
        #expect(merged[0].scenarios.map(\.id) == ["refresh/a", "refresh/b", "retry/c"])
        #expect(merged[0].shard == nil)
        #expect(merged[0].milliseconds == 3500, "from the first start to the last end")
        #expect(merged[1] == other)
    }

    @Test("merging refuses shards that overlap or come from different runs")
    func refusesConflicts() {
        let first = Self.result(["refresh/a"], shard: "1/2")
        #expect(
            throws: ResultFileProblem(
                file: "2.json",
                message: "scenario refresh/a for reference 1.0 is also in 1.json; shards must not overlap"
            )
        ) {
            _ = try ResultMerge.merge([("1.json", first), ("2.json", Self.result(["refresh/a"], shard: "2/2"))])
        }
        #expect(throws: ResultFileProblem.self) {
            _ = try ResultMerge.merge([("1.json", first), ("2.json", Self.result(["refresh/b"], seed: 7))])
        }
    }

    @Test("a result file whose times lie beyond any run is refused, naming the field")
    func impossibleTimes() {
        for (marker, field) in [("424242", ".milliseconds"), ("434343", ".scenarios[0].milliseconds")] {
            let text = Self.resultFileWithMarkers().replacingOccurrences(of: marker, with: "9223372036854775807")
            #expect(throws: ResultFileProblem.self) { _ = try JSONReport.read(Data(text.utf8), from: "result.json") }
            do {
                _ = try JSONReport.read(Data(text.utf8), from: "result.json")
            } catch {
                #expect("\(error)".contains(field), "\(error)")
            }
        }
    }
}
