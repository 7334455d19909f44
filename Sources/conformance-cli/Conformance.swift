import ArgumentParser
import Foundation

/// `conformance`: judges OAuth 2.0 clients against a misbehaving mock provider.
struct Conformance: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Judge how an OAuth 2.0 client copes with a provider that misbehaves.",
        discussion:
            "Exit status: 0 when every scenario passes, 1 when one fails or errors, 2 for a usage or input error.",
        subcommands: [
            Run.self, Report.self, Baseline.self, Serve.self, Validate.self, ListScenarios.self, Explain.self,
            SelftestCommand.self, Probe.self, IsolationWorker.self,
        ]
    )
}

@main
enum Entry {
    static func main() async {
        // Without this, a closed pipe (`conformance run | head -1`) kills the process before
        // it writes its reports; with it, the write fails with EPIPE and Console stops writing.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try Conformance.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withUsageConvention: error)
        }
    }

    /// Exits as `Conformance.exit(withError:)` does, except that every usage error exits with 2,
    /// the status this tool documents for input it cannot use.
    static func exit(withUsageConvention error: any Error) -> Never {
        guard Conformance.exitCode(for: error) == .validationFailure else { Conformance.exit(withError: error) }
        Console.error(Conformance.fullMessage(for: error))
        Foundation.exit(ExitCode.inputError.rawValue)
    }
}

extension ExitCode {
    /// A scenario failed or could not be judged.
    static let nonConforming = ExitCode(1)
    /// Bad usage, or scenario files that do not validate.
    static let inputError = ExitCode(2)
}

enum Console {
    static func error(_ message: String) {
        write(message + "\n", to: STDERR_FILENO)
    }

    /// Writes all of `text`, or as much as the reader takes: a reader that went away (`| head`)
    /// ends the output, not the run, which still writes its reports and exits with its verdict.
    static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
