/// What the MCP server answers an authorized JSON-RPC message POSTed to it (MCP 2025-06-18 and
/// later, "Streamable HTTP" transport): just enough of a server for an MCP client library's session
/// to initialize, list and call tools, so a library whose authorization starts inside its first MCP
/// request can be driven as an application drives it. Its authorization is the endpoint's; what it
/// answers once authorized is this one's.
enum MCPMessageAnswer {
    /// The server's only tool: a call to it succeeds, whatever its arguments.
    static let toolName = "echo"

    /// A JSON-RPC message as the server reads it, parsed once for its authorization (the scope
    /// its method needs) and its answer.
    struct Message {
        let method: String
        /// `nil` for a notification.
        let id: JSONValue?
        let parameters: JSONValue?

        /// `nil` when the body is no JSON-RPC message (then the endpoint answers as the plain
        /// protected resource it also is).
        init?(body: String) {
            guard case .object(let message)? = JSONValue.parse(body),
                message["jsonrpc"] == .string("2.0"),
                let method = message["method"]?.stringValue
            else { return nil }
            self.method = method
            self.id = message["id"]
            self.parameters = message["params"]
        }
    }

    static func answer(_ message: Message) -> ProviderResponse {
        // A notification (no id) is accepted with no body (Streamable HTTP: 202 Accepted).
        guard let id = message.id else { return ProviderResponse(status: 202) }
        let result = result(of: message.method, parameters: message.parameters)
        var reply: [String: JSONValue] = ["jsonrpc": .string("2.0"), "id": id]
        switch result {
        case .success(let value): reply["result"] = value
        case .failure(let error):
            reply["error"] = .object(["code": .integer(error.code), "message": .string(error.message)])
        }
        return .json(200, .object(reply))
    }

    private struct MethodNotFound: Error {
        let code = -32601
        let message: String
    }

    private static func result(of method: String, parameters: JSONValue?) -> Result<JSONValue, MethodNotFound> {
        switch method {
        case "initialize":
            // The server speaks the version the client asked for: its answers do not differ by version.
            let version = parameters?["protocolVersion"] ?? .string("2025-06-18")
            return .success(
                .object([
                    "protocolVersion": version,
                    "capabilities": .object(["tools": .object([:])]),
                    "serverInfo": .object(["name": .string("oauth-conformance"), "version": .string("1")]),
                ])
            )
        case "ping":
            return .success(.object([:]))
        case "tools/list":
            return .success(
                .object([
                    "tools": .array([
                        .object([
                            "name": .string(toolName),
                            "description": .string("Succeeds, whatever it is given."),
                            "inputSchema": .object(["type": .string("object")]),
                        ])
                    ])
                ])
            )
        case "tools/call":
            return .success(
                .object([
                    "content": .array([.object(["type": .string("text"), "text": .string("ok")])]),
                    "isError": .bool(false),
                ])
            )
        default:
            return .failure(MethodNotFound(message: "Method not found: \(method)"))
        }
    }
}
