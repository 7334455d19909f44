import Foundation
import MockProvider

/// The parts of an OpenID Provider's discovery document (Discovery 1.0 §3) the reference client
/// uses, accepted only when its `issuer` is exactly the issuer it was fetched for (§4.3): otherwise
/// one provider could speak for another, and every later `iss` check would compare with the wrong
/// value.
public struct OpenIDProviderMetadata: Sendable, Equatable {
    public let issuer: String
    public let authorizationEndpoint: String?
    public let tokenEndpoint: String?
    public let userinfoEndpoint: String?
    public let jwksURI: String?
    /// `id_token_signing_alg_values_supported`.
    public let idTokenSigningAlgorithms: [String]

    /// `body` is what `<issuer>/.well-known/openid-configuration` answered.
    public static func read(_ body: String, fetchedFor issuer: String) -> Result<Self, OpenIDConnectRefusal> {
        guard case .object(let members)? = JSONValue.parse(body) else {
            return .failure(.discoveryDocumentUnreadable("it is not a JSON object"))
        }
        // Identical, not equivalent: no case folding and no trailing-slash tolerance (§4.3).
        guard let found = members["issuer"]?.stringValue, found == issuer else {
            return .failure(.discoveryIssuerMismatch(found: members["issuer"]?.stringValue, fetchedFor: issuer))
        }
        let algorithms: [String] =
            if case .array(let values)? = members["id_token_signing_alg_values_supported"] {
                values.compactMap(\.stringValue)
            } else { [] }
        return .success(
            OpenIDProviderMetadata(
                issuer: found,
                authorizationEndpoint: members["authorization_endpoint"]?.stringValue,
                tokenEndpoint: members["token_endpoint"]?.stringValue,
                userinfoEndpoint: members["userinfo_endpoint"]?.stringValue,
                jwksURI: members["jwks_uri"]?.stringValue,
                idTokenSigningAlgorithms: algorithms
            )
        )
    }
}
