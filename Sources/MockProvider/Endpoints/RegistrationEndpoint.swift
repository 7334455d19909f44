import Foundation

/// RFC 7591 Dynamic Client Registration, served where the scenario offers it
/// (`provider.client_registration.dynamic_registration`): a JSON POST of the client's metadata,
/// answered 201 with a fresh `client_id`, a `client_secret` when the requested
/// `token_endpoint_auth_method` needs one (§3.2.1), and the metadata as registered; or 400 with a
/// §3.2.2 error, `invalid_client_metadata` for a method the server does not offer
/// (`ClientRegistrationPolicy.offeredAuthMethods`). The client is then known at `/authorize` and
/// `/token` (`ClientRegistrations`), and let in only by the method it registered.
struct RegistrationEndpoint: Sendable {
    let registrations: ClientRegistrations

    func serve(_ request: ProviderRequest, unixNow: Int) -> ProviderResponse {
        guard registrations.policy.dynamicRegistration else { return .notFound }
        guard request.method == "POST" else {
            return .oauthError(
                ScriptedOAuthError(code: "invalid_request", description: "register with POST", status: 405),
                extraHeaders: [HeaderField("Allow", "POST")]
            )
        }
        guard case .object(var metadata)? = JSONValue.parse(request.body) else {
            return Self.refusal(
                .invalidClientMetadata,
                "the body is not a JSON object of client metadata (RFC 7591 §3.1)"
            )
        }
        // RFC 7591 §2: a client of a redirect-based flow must register its redirect URIs.
        guard case .array(let listed)? = metadata["redirect_uris"], !listed.isEmpty else {
            return Self.refusal(.invalidRedirectURI, "redirect_uris is missing or empty")
        }
        let redirectURIs = listed.compactMap(\.stringValue)
        if let refused = redirectURIs.count == listed.count ? redirectURIs.first(where: Self.refuses) : "" {
            return Self.refusal(
                .invalidRedirectURI,
                "\(refused.isEmpty ? "a redirect URI that is not a string" : refused) is not a loopback http or an https URI without a fragment (MCP authorization, Communication Security)"
            )
        }
        let policy = registrations.policy
        let asked = metadata["token_endpoint_auth_method"]?.stringValue ?? "client_secret_basic"
        // A server that substitutes replaces any method it knows (§3.2.1); one that does not refuses
        // a method it does not offer (§3.2.2) rather than register a client that could not
        // authenticate as it asked.
        let known = ClientRegistrationPolicy.registrableAuthMethods.contains(asked)
        guard policy.registers(asked) || (known && policy.substitutedAuthMethod != nil) else {
            let offered = policy.offeredAuthMethods ?? ClientRegistrationPolicy.registrableAuthMethods
            return Self.refusal(
                .invalidClientMetadata,
                "token_endpoint_auth_method \(asked)\(metadata["token_endpoint_auth_method"] == nil ? " (RFC 7591 §2's default)" : "") is not one this server offers: "
                    + offered.joined(separator: ", ") + " (token_endpoint_auth_methods_supported)"
            )
        }
        let method = policy.substitutedAuthMethod ?? asked
        let client = registrations.register(authMethod: method, redirectURIs: redirectURIs)
        metadata["token_endpoint_auth_method"] = .string(method)
        metadata["client_id"] = .string(client.id)
        metadata["client_id_issued_at"] = .integer(unixNow)
        if let secret = client.secret {
            metadata["client_secret"] = .string(secret)
            // RFC 7591 §3.2.1: required with a secret; 0, it does not expire.
            metadata["client_secret_expires_at"] = .integer(0)
        }
        return .json(201, .object(metadata))
    }

    /// MCP authorization, Communication Security: a redirect URI is `localhost` (loopback) or `https`.
    private static func refuses(_ uri: String) -> Bool {
        guard let parts = URLComponents(string: uri), parts.fragment == nil, let host = parts.host, !host.isEmpty
        else { return true }
        switch parts.scheme {
        case "https": return false
        case "http": return !["127.0.0.1", "localhost", "[::1]", "::1"].contains(host)
        default: return true
        }
    }

    private static func refusal(_ code: RegistrationErrorCode, _ description: String) -> ProviderResponse {
        .oauthError(ScriptedOAuthError(code: code.rawValue, description: description, status: 400))
    }
}
