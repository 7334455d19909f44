/// What the authorization response's `iss` must be (RFC 9207 §2.4), recorded with the request it
/// answers: the issuer the client started the flow with, and whether the authorization server
/// promised to send it.
struct ExpectedIssuer: Sendable, Equatable {
    /// How a received `iss` is compared with the issuer.
    enum Comparison: Sendable, Equatable {
        /// Simple string comparison (RFC 3986 §6.2.1), as RFC 9207 §2.4 and MCP require.
        case exact
        /// The defect: scheme and host case folded and a trailing slash dropped first (RFC 3986
        /// §6.2.2–6.2.3), so a near-miss issuer passes.
        case normalized
    }

    let identifier: String
    /// The authorization server advertised `authorization_response_iss_parameter_supported`: a
    /// response without `iss` is refused. Otherwise one without it proceeds, and one with it is
    /// still compared (MCP "Authorization Response Validation", the table's rows).
    let requiredInResponse: Bool
    var comparison = Comparison.exact

    func accepts(_ received: String?) -> Bool {
        guard let received else { return !requiredInResponse }
        switch comparison {
        case .exact: return received == identifier
        case .normalized: return Self.normalized(received) == Self.normalized(identifier)
        }
    }

    private static func normalized(_ issuer: String) -> String {
        var folded = issuer.lowercased()
        while folded.hasSuffix("/") { folded.removeLast() }
        return folded
    }
}
