import Foundation
import JWTKit
import MockProvider

/// An ID token as it arrived, split by JWTKit into its JOSE header and its claims, before anything
/// about it is trusted. The signature is checked by `IDTokenSignatureCheck`, the claims by
/// `IDTokenClaimsCheck`.
struct SignedIDToken: Sendable {
    let compact: String
    let header: JWTHeader
    let claims: IDTokenClaimSet

    var algorithm: String? { header.alg }
    var keyID: String? { header.kid }

    static func parse(_ compact: String) -> Result<SignedIDToken, OpenIDConnectRefusal> {
        // A JWE compact serialisation has five parts (RFC 7516 §7.1); telling it apart from
        // garbage makes the refusal say what the provider did.
        switch compact.utf8.count(where: { $0 == UInt8(ascii: ".") }) {
        case 2: break
        case 4: return .failure(.encrypted)
        default: return .failure(.malformed("it does not have three dot-separated parts"))
        }
        do {
            let (header, claims, _) = try DefaultJWTParser().parse([UInt8](compact.utf8), as: IDTokenClaimSet.self)
            return .success(SignedIDToken(compact: compact, header: header, claims: claims))
        } catch let error as JWTError {
            return .failure(.malformed(error.reason ?? "its header or claims are not base64url JSON objects"))
        } catch {
            return .failure(.malformed("its header or claims are not base64url JSON objects"))
        }
    }
}

/// The claims of an ID token, every member kept as sent so that each rule can tell "missing" from
/// "wrong" and the validated identity carries the claims the application may want.
struct IDTokenClaimSet: JWTPayload {
    let members: [String: JSONValue]

    init(members: [String: JSONValue]) {
        self.members = members
    }

    init(from decoder: any Decoder) throws {
        members = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(members)
    }

    /// Deliberately empty: JWTKit calls this after the signature, and the claims are checked
    /// by `IDTokenClaimsCheck`, where each broken rule gets its own refusal.
    func verify(using algorithm: some JWTAlgorithm) async throws {}

    func string(_ name: String) -> String? {
        members[name]?.stringValue
    }

    /// A NumericDate (RFC 7519 §2): seconds since the epoch, integer or not.
    func date(_ name: String) -> Date? {
        switch members[name] {
        case .integer(let seconds)?: Date(timeIntervalSince1970: TimeInterval(seconds))
        case .number(let seconds)? where seconds.isFinite: Date(timeIntervalSince1970: seconds)
        default: nil
        }
    }

    /// `aud`: one string, or an array of strings (RFC 7519 §4.1.3); `nil` when absent or neither.
    var audiences: [String]? {
        switch members["aud"] {
        case .string(let audience)?: return [audience]
        case .array(let values)?:
            let audiences = values.compactMap(\.stringValue)
            return audiences.count == values.count ? audiences : nil
        default: return nil
        }
    }
}

/// An ID token that passed every check the client's behaviour performs: who signed in (`sub` at
/// `iss`) and the claims the provider asserted.
public struct ValidatedIDToken: Sendable, Equatable {
    public let issuer: String
    public let subject: String
    public let audiences: [String]
    public let authorizedParty: String?
    /// `nil` only for a client that does not read `exp`.
    public let expiresAt: Date?
    public let issuedAt: Date?
    public let claims: [String: JSONValue]
}
