/// A place in a scenario file, 1-based like every editor.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// A problem found in user input, reported as `file:line:column: error: message`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable { case error, warning }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation?

    public init(_ severity: Severity, _ message: String, at location: SourceLocation?) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(severity.rawValue): \(message)"
    }
}

/// Collects every problem of a stage instead of stopping at the first, so a user fixes a file in one pass.
public final class DiagnosticCollector {
    public private(set) var diagnostics: [Diagnostic] = []

    public init() {}

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    public func error(_ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(.error, message, at: location))
    }

    public func warning(_ message: String, at location: SourceLocation?) {
        diagnostics.append(Diagnostic(.warning, message, at: location))
    }
}
