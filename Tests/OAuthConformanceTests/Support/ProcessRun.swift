import Foundation

/// Runs a program to completion, output captured through files so a chatty program cannot
/// fill a pipe and stall. The wait is a suspension, not a blocked thread: the tests run in
/// parallel on a cooperative pool as wide as the machine has cores (two in CI), and one test
/// blocking a thread for a minute-long `conformance selftest` would stall half of the others.
struct ProcessRun {
    var status: Int32
    var standardOutput: String
    var standardError: String

    static func run(
        _ executable: URL,
        _ arguments: [String],
        in directory: URL = PackageFiles.root,
        environment: [String: String] = [:]
    ) async throws -> ProcessRun {
        let scratch = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outputFile = scratch.appendingPathComponent("stdout")
        let errorFile = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        process.currentDirectoryURL = directory
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try await withCheckedThrowingContinuation { (ended: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in ended.resume() }
            do { try process.run() } catch { ended.resume(throwing: error) }
        }
        return ProcessRun(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outputFile), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
        )
    }

    /// Runs the `conformance` executable built beside the tests, in the package root.
    static func conformance(_ arguments: [String]) async throws -> ProcessRun {
        try await run(PackageFiles.conformanceExecutable, arguments)
    }

    /// Finds a program on PATH.
    static func which(_ name: String) -> URL? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
