/// A flow the clients table lists the implementers of, apart from the behaviour families: a
/// client implements it when it declares one of its capabilities.
struct ModernFlow {
    var title: String
    var capabilities: [String]
    /// The family whose scenarios judge it.
    var family: String

    static let all = [
        ModernFlow(
            title: "Device authorization grant (RFC 8628)",
            capabilities: [Capability.deviceGrant.rawValue],
            family: "device-authorization-polling"
        ),
        ModernFlow(title: "DPoP (RFC 9449)", capabilities: [Capability.dpop.rawValue], family: "dpop"),
        ModernFlow(
            title: "Pushed authorization requests (RFC 9126)",
            capabilities: [Capability.pushedAuthorizationRequests.rawValue],
            family: "pushed-authorization-requests"
        ),
        ModernFlow(
            title: "JWT client authentication (RFC 7523)",
            capabilities: [Capability.privateKeyJWT.rawValue, Capability.clientSecretJWT.rawValue],
            family: "client-assertions"
        ),
        ModernFlow(
            title: "OpenID Connect sign-in",
            capabilities: [Capability.openID.rawValue],
            family: "id-token-validation"
        ),
        ModernFlow(
            title: "MCP authorization (Model Context Protocol 2026-07-28)",
            capabilities: [Capability.mcpDiscovery.rawValue],
            family: "mcp-authorization"
        ),
    ]
}
