/// How a client gets its client ID at this provider (MCP authorization 2026-07-28, "Client
/// Registration"): registered before the scenario (its id and secret in the client's
/// environment), by Dynamic Client Registration (RFC 7591), or by a Client ID Metadata Document
/// (an `https` URL as its `client_id`). A scenario chooses by `provider.client_registration`.
public struct ClientRegistrationPolicy: Sendable, Equatable {
    /// Whether the provider holds a registration for the client before the scenario starts, as
    /// every scenario's provider does unless it says otherwise; without one, the client's
    /// environment carries no `client_id`, and the registered id is refused.
    public var preRegistered = true
    /// RFC 7591: `registration_endpoint` in the metadata, and `POST /register` served.
    public var dynamicRegistration = false
    /// MCP "Client ID Metadata Documents": `client_id_metadata_document_supported: true` in the
    /// metadata, and any `https` URL with a path taken as a public client's `client_id`.
    public var clientIDMetadataDocuments = false
    /// RFC 7591 §3.2.1 lets the server "replace any of the client's requested metadata values":
    /// set, every registration is made with this `token_endpoint_auth_method` whatever the client
    /// asked for (with a secret unless it is `none`), and the answer says so.
    public var substitutedAuthMethod: String?
    /// The only `token_endpoint_auth_method`s the server offers (RFC 8414 §2
    /// `token_endpoint_auth_methods_supported` lists exactly these), as a server that supports one
    /// way of authenticating clients does: a registration asking for another is refused
    /// `invalid_client_metadata` (RFC 7591 §3.2.2), a client that omits the member asks for RFC
    /// 7591 §2's default `client_secret_basic`. `nil`: every registrable method.
    public var offeredAuthMethods: [String]?

    /// The `token_endpoint_auth_method`s this provider registers; `client_secret_basic` is RFC 7591
    /// §2's default.
    public static let registrableAuthMethods = ["none", "client_secret_basic", "client_secret_post"]

    public init(
        preRegistered: Bool = true,
        dynamicRegistration: Bool = false,
        clientIDMetadataDocuments: Bool = false,
        substitutedAuthMethod: String? = nil,
        offeredAuthMethods: [String]? = nil
    ) {
        self.preRegistered = preRegistered
        self.dynamicRegistration = dynamicRegistration
        self.clientIDMetadataDocuments = clientIDMetadataDocuments
        self.substitutedAuthMethod = substitutedAuthMethod
        self.offeredAuthMethods = offeredAuthMethods
    }

    /// Whether a registration may be made with `method`: one this provider registers at all, and
    /// one the server offers where it offers only some.
    public func registers(_ method: String) -> Bool {
        Self.registrableAuthMethods.contains(method) && offeredAuthMethods?.contains(method) != false
    }

    /// MCP "Client ID Metadata Documents": the `client_id` is an `https` URL with a path. The
    /// provider does not fetch the document: the URL names the client developer's host, which a
    /// harness on loopback cannot serve under its real name; what it judges is that the client
    /// used its URL as its id where, and only where, the provider advertised the scheme.
    public static func isMetadataDocumentURL(_ clientID: String) -> Bool {
        guard clientID.hasPrefix("https://"), let components = URLComponentsLite(clientID) else { return false }
        return !components.host.isEmpty && components.path.count > 1 && components.fragmentless
    }
}

/// The parts of an absolute URL a `client_id` check needs, without Foundation's parser (whose
/// leniency differs between platforms).
private struct URLComponentsLite {
    let host: String
    let path: String
    let fragmentless: Bool

    init?(_ url: String) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        host = String(rest[..<authorityEnd])
        let afterAuthority = rest[authorityEnd...]
        path = String(afterAuthority.prefix { $0 != "?" && $0 != "#" })
        fragmentless = !url.contains("#")
    }
}
