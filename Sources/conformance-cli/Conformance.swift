import ArgumentParser
import Foundation

/// `conformance`: judges OAuth 2.0 clients against a misbehaving mock provider.
struct Conformance: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Judge how an OAuth 2.0 client copes with a provider that misbehaves.",
        discussion: "Exit status: 0 when every scenario passes, 1 when one fails or errors, 2 for a usage or input error.",
        subcommands: [Run.self, Report.self, Serve.self, Validate.self, ListScenarios.self, Explain.self, SelftestCommand.self]
    )
}

@main
enum Entry {
    static func main() async {
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
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
