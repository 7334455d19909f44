import Synchronization

/// The clients the provider knows besides the one registered before the scenario: those it
/// registered at `/register`, and, where the scenario advertises Client ID Metadata Documents,
/// any client whose `client_id` is such a document's URL. Shared by the authorization endpoint
/// and every endpoint that authenticates clients.
final class ClientRegistrations: Sendable {
    let policy: ClientRegistrationPolicy
    /// Begins every id and secret it hands out, so that another authorization server's registrations
    /// (`as2-registered-client-1`) are told from this one's.
    private let idPrefix: String
    private let registered = Mutex<(clients: [String: RegisteredClient], count: Int)>(([:], 0))

    init(policy: ClientRegistrationPolicy, idPrefix: String = "") {
        self.policy = policy
        self.idPrefix = idPrefix
    }

    /// A new registration for `authMethod` with a fresh id (and a secret unless the client is
    /// public, `none`), numbered in the order registrations arrive so that runs repeat exactly.
    func register(authMethod: String, redirectURIs: [String]) -> RegisteredClient {
        registered.withLock { state in
            state.count += 1
            let client = RegisteredClient(
                id: "\(idPrefix)registered-client-\(state.count)",
                secret: authMethod == "none" ? nil : "\(idPrefix)registered-secret-\(state.count)",
                authMethod: authMethod,
                redirectURIs: redirectURIs
            )
            state.clients[client.id] = client
            return client
        }
    }

    /// The client registered under `id` during the scenario, or the public client a Client ID
    /// Metadata Document URL names where the provider takes them; `nil` for any other id.
    func client(id: String) -> RegisteredClient? {
        if let client = registered.withLock({ $0.clients[id] }) { return client }
        guard policy.clientIDMetadataDocuments, ClientRegistrationPolicy.isMetadataDocumentURL(id) else { return nil }
        return RegisteredClient(id: id, secret: nil, authMethod: "none", redirectURIs: nil)
    }
}
