/// A probe of a claim a profile makes about its library (`expected_failures[].probe`): a program
/// run from the profile's folder, outside the harness, that drives the library against a
/// throwaway local server and ends with `confirmed: …` (exit 0) when the library does what the
/// claim says, or `not confirmed: …` (exit 1). `conformance probe` runs them.
public struct ProbeCommand: Sendable, Hashable {
    /// The program and its arguments, as the profile writes them: a program with a slash is
    /// relative to `directory`, one without is looked up on `PATH`.
    public var arguments: [String]
    /// The profile's folder: where the probe runs, and what a relative program is relative to.
    public var directory: String

    public init(arguments: [String], directory: String) {
        self.arguments = arguments
        self.directory = directory
    }

    /// `.venv/bin/python probes/null_refresh_token.py`: how reports name it.
    public var text: String { arguments.joined(separator: " ") }
}
