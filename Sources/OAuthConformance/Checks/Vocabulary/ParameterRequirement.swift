/// What one parameter of a request (its query, or its form body) must be.
public struct ParameterRequirement: Sendable, Equatable, CustomStringConvertible {
    public enum Condition: Sendable, Equatable {
        case equals(String)
        case present
        case absent
        /// Present, with at least this many characters.
        case minimumLength(Int)
        /// A space-separated list (as `scope` is, RFC 6749 §3.3) that holds this word.
        case includes(String)
        /// Absent, or a space-separated list that does not hold this word: `offline_access` not
        /// asked for where the authorization server does not list it.
        case excludes(String)
        /// The canonical URI of the scenario's MCP server (`mcp_server`), as RFC 8707's `resource`
        /// names it; its port is known only once the provider listens.
        case mcpServer
    }

    public var name: String
    public var condition: Condition

    public init(_ name: String, _ condition: Condition) {
        self.name = name
        self.condition = condition
    }

    /// - Parameter mcpServer: the MCP server's canonical URI in this run.
    public func admits(_ value: String?, mcpServer: String? = nil) -> Bool {
        switch condition {
        case .mcpServer: value != nil && value == mcpServer
        case .equals(let expected): value == expected
        case .present: value.map { !$0.isEmpty } ?? false
        case .absent: value == nil
        case .minimumLength(let length): (value?.count ?? 0) >= length
        case .includes(let word): value?.split(separator: " ").contains { $0 == word } ?? false
        case .excludes(let word): !(value?.split(separator: " ").contains { $0 == word } ?? false)
        }
    }

    /// e.g. "code_challenge_method = S256", "state of at least 22 characters".
    public var description: String {
        switch condition {
        case .equals(let expected): "\(name) = \(expected)"
        case .present: "\(name) present"
        case .absent: "no \(name)"
        case .minimumLength(let length): "\(name) of at least \(length) characters"
        case .includes(let word): "\(name) including \(word)"
        case .excludes(let word): "\(name) without \(word)"
        case .mcpServer: "\(name) = the MCP server's URI"
        }
    }
}
