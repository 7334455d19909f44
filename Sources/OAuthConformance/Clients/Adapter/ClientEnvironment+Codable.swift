import Foundation
import MockProvider

/// The environment as `reset`'s `environment` object carries it (docs/adapter-protocol.md): one
/// flat object with the endpoints' fields beside these, every field present, `null` for what the
/// scenario does not use. The clock stays behind: an adapter's client lives on each message's
/// `now`, so a decoder is handed the clock to read (`CodingUserInfoKey.virtualClock`). A public
/// client's `client_secret` is `null`; a client the provider holds no registration for has
/// `client_id` and `client_secret` `null`, and gets its client ID itself (with
/// `client_id_metadata_document_url` when its profile declares one).
extension ClientEnvironment: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case redirectURI = "redirect_uri"
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case username
        case password
        case storageDirectory = "storage_dir"
        case caCertificateFile = "ca_file"
        case pinnedPublicKeySHA256 = "pinned_public_key_sha256"
        case idTokenSigningAlgorithm = "id_token_signing_alg"
        case clientAuthentication = "token_endpoint_auth_method"
        case clientAssertionKey = "client_assertion_jwk"
        case dpopSigningAlgorithms = "dpop_signing_alg_values_supported"
        case clientIDMetadataDocumentURL = "client_id_metadata_document_url"
    }

    /// Decodes what `reset` carries; the decoder's `userInfo[.virtualClock]` is the clock the
    /// client is to read.
    public init(from decoder: any Decoder) throws {
        guard let clock = decoder.userInfo[.virtualClock] as? VirtualClock else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "no virtual clock in the decoder's userInfo")
            )
        }
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        let authentication = try fields.decode(String.self, forKey: .clientAuthentication)
        guard let clientAuthentication = ClientAuthenticationMethod(rawValue: authentication) else {
            throw DecodingError.dataCorruptedError(
                forKey: .clientAuthentication,
                in: fields,
                debugDescription: "unknown token_endpoint_auth_method \(authentication)"
            )
        }
        let clientID = try fields.decodeIfPresent(String.self, forKey: .clientID)
        self.init(
            endpoints: try ProviderEndpoints(from: decoder),
            redirectURI: try fields.decode(String.self, forKey: .redirectURI),
            client: ClientCredentials(
                id: clientID ?? "",
                secret: try fields.decodeIfPresent(String.self, forKey: .clientSecret) ?? ""
            ),
            user: UserCredentials(
                username: try fields.decode(String.self, forKey: .username),
                password: try fields.decode(String.self, forKey: .password)
            ),
            clock: clock,
            storageDirectory: URL(fileURLWithPath: try fields.decode(String.self, forKey: .storageDirectory)),
            caCertificateFile: try fields.decodeIfPresent(String.self, forKey: .caCertificateFile),
            pinnedPublicKeySHA256: try fields.decodeIfPresent(String.self, forKey: .pinnedPublicKeySHA256),
            idTokenSigningAlgorithm: try fields.decode(String.self, forKey: .idTokenSigningAlgorithm),
            clientAuthentication: clientAuthentication,
            clientAssertionKey: try fields.decodeIfPresent(String.self, forKey: .clientAssertionKey),
            dpopSigningAlgorithms: try fields.decodeIfPresent([String].self, forKey: .dpopSigningAlgorithms),
            isPreRegistered: clientID != nil,
            clientIDMetadataDocumentURL: try fields.decodeIfPresent(String.self, forKey: .clientIDMetadataDocumentURL)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        try endpoints.encode(to: encoder)
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(redirectURI, forKey: .redirectURI)
        try fields.encode(isPreRegistered ? client.id : nil, forKey: .clientID)
        try fields.encode(clientSecret, forKey: .clientSecret)
        try fields.encode(user.username, forKey: .username)
        try fields.encode(user.password, forKey: .password)
        try fields.encode(storageDirectory.path, forKey: .storageDirectory)
        try fields.encode(caCertificateFile, forKey: .caCertificateFile)
        try fields.encode(pinnedPublicKeySHA256, forKey: .pinnedPublicKeySHA256)
        try fields.encode(idTokenSigningAlgorithm, forKey: .idTokenSigningAlgorithm)
        try fields.encode(clientAuthentication.rawValue, forKey: .clientAuthentication)
        try fields.encode(clientAssertionKey, forKey: .clientAssertionKey)
        try fields.encode(dpopSigningAlgorithms, forKey: .dpopSigningAlgorithms)
        try fields.encode(clientIDMetadataDocumentURL, forKey: .clientIDMetadataDocumentURL)
    }

    /// The `environment` object of `reset`.
    var adapterMessageValue: JSONValue {
        // Encoding cannot fail: every field is a string, a list of strings or null.
        (try? JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(self))) ?? .null
    }
}

extension CodingUserInfoKey {
    /// The clock a decoded `ClientEnvironment` reads.
    public static let virtualClock = CodingUserInfoKey(rawValue: "OAuthConformance.virtualClock")!
}
