import MockProvider

/// Which authorization server issued each credential of a run, for `never: { carries:
/// another_authorization_servers_credentials }` (MCP authorization 2026-07-28, "Authorization
/// Server Binding": a client "MUST NOT reuse client credentials from a different authorization
/// server"; RFC 6749 §2.2: a client identifier is unique to the server that issued it). A client
/// ID or secret is the server's that registered it (the 201 answers of its registration endpoint
/// in the journal), the pre-registered one the first's; a token is its issuer's. A Client ID
/// Metadata Document URL is no server's: it is portable by design.
struct AuthorizationServerBinding {
    private struct Credential {
        let value: String
        let name: String
        let issuer: AuthorizationServerID
    }

    private let credentials: [Credential]

    init(transcript: Transcript, preRegistered: ClientCredentials?) {
        var credentials: [Credential] = []
        if let preRegistered {
            credentials.append(
                Credential(value: preRegistered.id, name: "the pre-registered client_id", issuer: .first)
            )
            credentials.append(
                Credential(value: preRegistered.secret, name: "the pre-registered secret", issuer: .first)
            )
        }
        for entry in transcript.journal where entry.endpoint == .register && entry.response.status == 201 {
            let issuer = AuthorizationServerID.route(entry.request.path).server
            let answer = JSONValue.parse(entry.response.body)
            if let id = answer?["client_id"]?.stringValue {
                credentials.append(Credential(value: id, name: "client_id \(id)", issuer: issuer))
            }
            if let secret = answer?["client_secret"]?.stringValue {
                credentials.append(
                    Credential(value: secret, name: "the client_secret registered with it", issuer: issuer)
                )
            }
        }
        for token in transcript.issuedTokens {
            switch token.server {
            case .provider: credentials.append(Credential(value: token.value, name: token.label, issuer: .first))
            case .secondAuthorizationServer:
                credentials.append(Credential(value: token.value, name: token.label, issuer: .second))
            case .appServer: break
            }
        }
        self.credentials = credentials.filter { !$0.value.isEmpty }
    }

    /// The endpoints where a client presents what an authorization server issued it.
    private static let authorizationServerEndpoints: Set<Endpoint> = [
        .authorize, .token, .register, .revoke, .introspect, .pushedAuthorization, .deviceAuthorization,
    ]

    /// The credentials of another authorization server than the one the request went to, in
    /// words ("(client_id registered-client-1 of the first authorization server in query
    /// parameter client_id)"), or nil.
    func sighting(in entry: JournalEntry) -> String? {
        guard let endpoint = entry.endpoint, Self.authorizationServerEndpoints.contains(endpoint) else { return nil }
        let server = AuthorizationServerID.route(entry.request.path).server
        let sightings = credentials.filter { $0.issuer != server }.flatMap { credential in
            CredentialSearch.placesDecodingBasic(of: credential.value, in: entry.request).map {
                "\(credential.name) of the \(credential.issuer.rawValue) authorization server in \($0)"
            }
        }
        return sightings.isEmpty ? nil : "(\(sightings.joined(separator: ", ")))"
    }
}
