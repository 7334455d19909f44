import Foundation

/// One probe run to its end (`conformance probe`): the program started from the profile's folder
/// with the harness's environment, its stdout read line by line, bounded in time and length,
/// then judged by its exit status and its last line.
public struct ProbeRun: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// Exit status 0 and a last line `confirmed: …`: the library does what the claim says.
        case confirmed(String)
        /// Exit status 1 and a last line `not confirmed: …`, or anything else a probe can end in:
        /// a crash, another status, no verdict line, the time limit.
        case notConfirmed(String)
        /// The program could not be started (not built, not installed).
        case notRun(String)

        public var isConfirmed: Bool {
            if case .confirmed = self { return true }
            return false
        }
    }

    public var probe: ProbeCommand
    public var outcome: Outcome
    /// What the probe printed: the requests the library sent and what it surfaced.
    public var output: [String]

    /// Most lines of output kept; a probe prints a handful of requests.
    public static let outputLimit = 400

    /// Runs `probe`, killing it (and whatever it started) after `limit`.
    public static func run(_ probe: ProbeCommand, limit: Duration = .seconds(60)) async -> ProbeRun {
        let stderrFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("oauth-conformance-probe-\(UUID().uuidString).stderr").path
        defer { try? FileManager.default.removeItem(atPath: stderrFile) }
        var arguments = probe.arguments
        if let program = arguments.first, program.contains("/"), !program.hasPrefix("/") {
            arguments[0] =
                URL(fileURLWithPath: program, relativeTo: URL(fileURLWithPath: probe.directory + "/"))
                .standardizedFileURL.path
        }
        let process: SupervisedProcess
        do {
            process = try SupervisedProcess(
                .init(
                    arguments: arguments,
                    directory: probe.directory,
                    environment: ProcessInfo.processInfo.environment,
                    stderrFile: stderrFile,
                    role: "probe"
                )
            )
        } catch {
            return ProbeRun(probe: probe, outcome: .notRun(error.message), output: [])
        }
        process.closeInput()
        let deadline = ContinuousClock.now + limit
        var output: [String] = []
        var status: Int32?
        var timedOut = false
        // Until end of file, or until the probe has ended and what it wrote is read: a process the
        // probe started (or one the harness started meanwhile) may hold its stdout open after it.
        reading: while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                timedOut = true
                break
            }
            guard let next = await process.lines.next(within: min(left, .milliseconds(200))) else {
                if status == nil, let ended = await process.exitStatus(waitingUpTo: .zero) {
                    status = ended
                    continue  // one more look for lines still on their way
                }
                if status != nil { break }
                continue
            }
            switch next {
            case .line(let text):
                if output.count < outputLimit { output.append(text) }
            case .notUTF8(_, let prefix):
                if output.count < outputLimit { output.append(prefix + " [not UTF-8]") }
            case .overlong(let prefix):
                output.append(prefix + " [line too long; reading stopped]")
                break reading
            case .endOfFile:
                break reading
            }
        }
        if !timedOut, status == nil {
            status = await process.exitStatus(waitingUpTo: max(deadline - ContinuousClock.now, .seconds(1)))
        }
        await process.terminate()
        let errors = (try? String(contentsOfFile: stderrFile, encoding: .utf8)) ?? ""
        output += errors.split(separator: "\n", omittingEmptySubsequences: false).suffix(40).map { "stderr: \($0)" }
            .filter { $0 != "stderr: " }
        return ProbeRun(
            probe: probe,
            outcome: judge(status: timedOut ? nil : status, output: output, limit: limit),
            output: output
        )
    }

    /// Confirmed only by both signs: status 0 and a last verdict line `confirmed: …`.
    static func judge(status: Int32?, output: [String], limit: Duration) -> Outcome {
        guard let status else {
            return .notConfirmed("it did not end within \(DurationText.format(limit)); it was killed")
        }
        let verdict = output.last { !$0.hasPrefix("stderr: ") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let ended = SupervisedProcess.describe(status: status)
        if status == 0, let verdict, verdict.hasPrefix("confirmed:") {
            return .confirmed(String(verdict.dropFirst("confirmed:".count)).trimmingCharacters(in: .whitespaces))
        }
        if let verdict, verdict.hasPrefix("not confirmed:") {
            return .notConfirmed(
                String(verdict.dropFirst("not confirmed:".count)).trimmingCharacters(in: .whitespaces)
                    + (status == 1 << 8 ? "" : " (it \(ended))")
            )
        }
        return .notConfirmed("it \(ended) without a last line confirmed: or not confirmed:")
    }
}
