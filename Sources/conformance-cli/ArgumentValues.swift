import ArgumentParser
import OAuthConformance

// The harness's own types as command-line values, in one place for every command.

extension Area: ExpressibleByArgument {}

extension Level: ExpressibleByArgument {
    /// `must`, `should`, `policy`, in any case (`--level MUST`, `--fail-on should`).
    public init?(argument: String) {
        self.init(rawValue: argument.uppercased())
    }

    public static var allValueStrings: [String] { allCases.map { $0.rawValue.lowercased() } }
}

extension Shard: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
