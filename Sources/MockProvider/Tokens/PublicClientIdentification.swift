/// How a public client (RFC 6749 §2.1, registered with RFC 7591's `none`) makes itself known: by
/// `client_id` in the form (§3.2.1, §4.1.3), with no secret, no assertion and no HTTP Basic, since
/// it has no credentials to present. A public client that presents some is refused, as Entra ID
/// refuses it (AADSTS700025: "Client is public so neither 'client_assertion' nor 'client_secret'
/// should be presented").
struct PublicClientIdentification: Sendable {
    let clientID: String

    /// Why the request does not identify the public client; `nil` when it does.
    func refusal(of request: ProviderRequest) -> String? {
        let presented = [
            request.header("Authorization") != nil ? "HTTP Basic credentials" : nil,
            request.formField("client_secret") != nil ? "client_secret" : nil,
            request.formField("client_assertion") != nil || request.formField("client_assertion_type") != nil
                ? "client_assertion" : nil,
        ].compactMap { $0 }
        guard presented.isEmpty else {
            return
                "the client \(clientID) is registered as a public client (token_endpoint_auth_method none): it has no credentials, so it sends client_id alone and no \(presented.joined(separator: " or "))"
        }
        guard let given = request.formField("client_id") else {
            return "client_id is missing: a public client identifies itself by client_id in the form (RFC 6749 §3.2.1)"
        }
        return given == clientID ? nil : "unknown client_id \(given)"
    }
}
