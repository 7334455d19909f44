import Crypto
import Foundation

/// Checks a DPoP proof as RFC 9449 §4.3 lists it: one `DPoP` header holding a JWS whose `typ` is
/// `dpop+jwt`, whose `alg` is asymmetric, whose `jwk` is a public key that verifies the signature,
/// with a `jti` never seen before, the request's `htm` and `htu` (without query and fragment), an
/// `iat` within the window, the access token's `ath` at a resource, and the server's nonce when
/// it demands one. Remembers the `jti`s it saw, bounded like the token ledger.
final class DPoPProofVerifier: Sendable {
    struct Proof: Sendable {
        /// The thumbprint of the key that signed it, which bound tokens carry as `cnf.jkt`.
        let keyThumbprint: String
    }

    enum Refusal: Error, Equatable {
        /// `invalid_dpop_proof`, with the rule the proof broke.
        case invalidProof(String)
        /// `use_dpop_nonce`: the proof lacks the server's current nonce.
        case nonceRequired(String)
    }

    private let unixNow: @Sendable () -> Int
    private let seenJTIs: SeenIdentifiers

    init(unixNow: @escaping @Sendable () -> Int, capacity: Int = 100_000) {
        self.unixNow = unixNow
        self.seenJTIs = SeenIdentifiers(capacity: capacity)
    }

    /// - Parameters:
    ///   - targetURI: the URI the request was sent to, without its query.
    ///   - accessToken: the token presented with the proof, at a resource; its hash must be `ath`.
    ///   - nonce: the server's current nonce, when it demands one.
    func verify(
        _ request: ProviderRequest,
        targetURI: String,
        accessToken: String?,
        nonce: String?
    ) -> Result<Proof, Refusal> {
        func invalid(_ reason: String) -> Result<Proof, Refusal> { .failure(.invalidProof(reason)) }
        let headers = request.headers.filter { $0.isNamed("DPoP") }
        guard headers.count == 1, let proof = headers.first?.value else {
            return invalid("a request carries exactly one DPoP header")
        }
        let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2]),
            case .object(let header)? = JSONValue.parse(String(decoding: headerBytes, as: UTF8.self)),
            case .object(let claims)? = JSONValue.parse(String(decoding: claimBytes, as: UTF8.self))
        else { return invalid("the proof is not a JWS compact serialization of JSON objects") }
        guard header["typ"]?.stringValue == "dpop+jwt" else { return invalid("typ must be dpop+jwt") }
        guard let algorithm = header["alg"]?.stringValue, DPoPPolicy.signingAlgorithms.contains(algorithm) else {
            return invalid(
                "alg must be an asymmetric signature algorithm, not \(header["alg"]?.stringValue ?? "absent")"
            )
        }
        guard case .object(let jwk)? = header["jwk"] else { return invalid("the jwk header is missing") }
        let key: DPoPPublicKey
        do {
            key = try DPoPPublicKey(jwk: jwk, algorithm: algorithm)
        } catch {
            return invalid(error.reason)
        }
        guard key.verifies(signature, over: Data("\(parts[0]).\(parts[1])".utf8), algorithm: algorithm) else {
            return invalid("the signature does not verify with the jwk")
        }
        guard claims["htm"]?.stringValue == request.method else { return invalid("htm must be \(request.method)") }
        guard let htu = claims["htu"]?.stringValue else { return invalid("htu is missing") }
        guard !htu.contains("?"), !htu.contains("#") else {
            return invalid("htu must leave out the query and fragment")
        }
        guard Self.sameURI(htu, targetURI) else { return invalid("htu must be \(targetURI)") }
        guard let iat = claims["iat"] else { return invalid("iat is missing") }
        guard let issuedAt = NumericDate.wholeSeconds(iat) else {
            return invalid("iat must be \(NumericDate.expected)")
        }
        let now = unixNow()
        guard issuedAt >= now - Int(DPoPPolicy.proofMaximumAge.seconds) else { return invalid("iat is too old") }
        guard issuedAt <= now + Int(DPoPPolicy.proofMaximumLead.seconds) else { return invalid("iat is in the future") }
        if let accessToken {
            let hash = Base64URL.encode(Array(SHA256.hash(data: Data(accessToken.utf8))))
            guard claims["ath"]?.stringValue == hash else {
                return invalid("ath must be the base64url SHA-256 of the access token")
            }
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty else { return invalid("jti is missing") }
        guard SeenIdentifiers.isAcceptable(jti) else { return invalid("jti must be \(SeenIdentifiers.expected)") }
        // Recorded before the nonce is looked at: the retry that adds the nonce is a new proof.
        guard seenJTIs.firstSighting(jti) else { return invalid("the proof's jti was used before (a replay)") }
        if let nonce, claims["nonce"]?.stringValue != nonce {
            return .failure(.nonceRequired(claims["nonce"] == nil ? "the proof has no nonce" : "the nonce is stale"))
        }
        return .success(Proof(keyThumbprint: key.thumbprint))
    }

    /// RFC 3986 §6.2.2–6.2.3: scheme and host compare case-insensitively, a default port equals
    /// no port, and an empty path is `/`.
    static func sameURI(_ left: String, _ right: String) -> Bool {
        func normal(_ text: String) -> String? {
            guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
                let host = url.host?.lowercased()
            else { return nil }
            let port = url.port.map { ($0 == 443 && scheme == "https") || ($0 == 80 && scheme == "http") ? nil : $0 }
            return "\(scheme)://\(host)\((port ?? nil).map { ":\($0)" } ?? "")\(url.path.isEmpty ? "/" : url.path)"
        }
        guard let left = normal(left), let right = normal(right) else { return false }
        return left == right
    }
}
