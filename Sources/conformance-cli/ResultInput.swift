import ArgumentParser
import OAuthConformance

/// JSON result files as every command reads them: each problem on standard error and an input
/// error (exit 2) when any file cannot be used; the shards of one client's run merged into one.
enum ResultInput {
    static func load(_ files: [String]) throws -> [ConformanceResult] {
        var parts: [(file: String, result: ConformanceResult)] = []
        var problems: [ResultFileProblem] = []
        for file in files {
            do {
                parts.append((file, try JSONReport.read(file: file)))
            } catch {
                problems.append(error)
            }
        }
        guard problems.isEmpty else {
            for problem in problems { Console.error(problem.description) }
            throw ExitCode.inputError
        }
        do {
            return try ResultMerge.merge(parts)
        } catch {
            Console.error("\(error)")
            throw ExitCode.inputError
        }
    }
}
