import Foundation

/// Results read from several files, combined per client: the shards of one client's run (same
/// client name, version and profile) become one result; different clients stay side by side, in
/// the order their files were given.
public enum ResultMerge {
    public static func merge(
        _ files: [(file: String, result: ConformanceResult)]
    ) throws(ResultFileProblem) -> [ConformanceResult] {
        var clients: [ClientRecord] = []
        var parts: [ClientRecord: [(file: String, result: ConformanceResult)]] = [:]
        for part in files {
            if parts[part.result.client] == nil { clients.append(part.result.client) }
            parts[part.result.client, default: []].append(part)
        }
        var merged: [ConformanceResult] = []
        for client in clients {
            merged.append(try combine(parts[client] ?? []))
        }
        return merged
    }

    /// One client's parts (at least one) as one run: every scenario once, the time from the first start to the last end.
    private static func combine(
        _ parts: [(file: String, result: ConformanceResult)]
    ) throws(ResultFileProblem) -> ConformanceResult {
        var combined = parts[0].result
        guard parts.count > 1 else { return combined }
        var firstFile: [String: String] = [:]
        for (file, result) in parts {
            guard result.seed == combined.seed, result.harnessVersion == combined.harnessVersion else {
                throw ResultFileProblem(
                    file: file,
                    message:
                        "\(result.client.label) ran with harness \(result.harnessVersion) seed \(result.seed), but \(parts[0].file) with harness \(combined.harnessVersion) seed \(combined.seed); parts of one run must match"
                )
            }
            for scenario in result.scenarios {
                if let earlier = firstFile[scenario.id] {
                    throw ResultFileProblem(
                        file: file,
                        message:
                            "scenario \(scenario.id) for \(result.client.label) is also in \(earlier); shards must not overlap"
                    )
                }
                firstFile[scenario.id] = file
            }
        }
        let results = parts.map(\.result)
        let start = results.map(\.startedAt).min() ?? combined.startedAt
        let end = results.map { $0.startedAt.addingTimeInterval(Double($0.milliseconds) / 1000) }.max() ?? start
        combined.shard = nil
        combined.startedAt = start
        combined.milliseconds = Int((end.timeIntervalSince(start) * 1000).rounded())
        combined.interrupted = results.contains(where: \.interrupted)
        combined.scenarios = results.flatMap(\.scenarios).sorted { $0.id < $1.id }
        return combined
    }
}
