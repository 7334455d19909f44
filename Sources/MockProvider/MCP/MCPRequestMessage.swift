/// The JSON-RPC request an MCP client's application sends for an `mcp_call` step (MCP 2025-06-18
/// and later, "Streamable HTTP" transport): the method the step names, with the parameters this
/// server's answer needs (`tools/call` calls its only tool, `MCPMessageAnswer.toolName`). The
/// harness hands it to the client whole, so every client sends the same message.
public enum MCPRequestMessage {
    public static func body(method: String) -> String {
        let parameters: JSONValue =
            switch method {
            case "tools/call": .object(["name": .string(MCPMessageAnswer.toolName), "arguments": .object([:])])
            case "initialize":
                .object([
                    "protocolVersion": .string("2025-06-18"), "capabilities": .object([:]),
                    "clientInfo": .object(["name": .string("oauth-conformance"), "version": .string("1")]),
                ])
            default: .object([:])
            }
        let message: JSONValue = .object([
            "jsonrpc": .string("2.0"), "id": .integer(1), "method": .string(method), "params": parameters,
        ])
        return message.serialized()
    }
}
