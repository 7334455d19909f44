import Crypto
import Foundation
import JWTKit

/// Makes the reference client's DPoP proofs (RFC 9449 §4.2) with jwt-kit: `typ` `dpop+jwt`,
/// ES256 with the public key in the `jwk` header, and `jti`, `htm`, `htu`, `iat`, plus `ath` for a
/// bound token and the server's `nonce` when it gave one. One key pair per prover.
struct DPoPProver: Sendable {
    struct Claims: JWTPayload {
        var jti: String
        var htm: String
        var htu: String
        var iat: Int
        var ath: String?
        var nonce: String?

        // Signing only: the server verifies.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private let keys: JWTKeyCollection
    private let publicJWK: [String: JWTHeaderField]

    init() async throws {
        let key = ES256PrivateKey()
        guard let point = key.parameters else { throw JWTError.generic(identifier: "dpop", reason: "no public point") }
        self.keys = await JWTKeyCollection().add(ecdsa: key)
        self.publicJWK = ["kty": .string("EC"), "crv": .string("P-256"), "x": .string(point.x), "y": .string(point.y)]
    }

    /// - Parameters:
    ///   - url: the request's target URI; `htu` leaves out its query and fragment unless
    ///     `keepingQuery` (a defect).
    ///   - accessToken: the bound token the request presents, whose SHA-256 is `ath` (§4.2).
    func proof(
        method: String,
        url: String,
        accessToken: String?,
        nonce: String?,
        issuedAt: Date,
        keepingQuery: Bool = false
    ) async throws -> String {
        var header = JWTHeader()
        header.typ = "dpop+jwt"
        header.alg = "ES256"
        header.jwk = publicJWK
        let claims = Claims(
            jti: AuthorizationRequest.random(),
            htm: method,
            htu: keepingQuery ? url : Self.targetURI(url),
            iat: Int(issuedAt.timeIntervalSince1970),
            ath: accessToken.map { AuthorizationRequest.base64URL(Data(SHA256.hash(data: Data($0.utf8)))) },
            nonce: nonce
        )
        return try await keys.sign(claims, header: header)
    }

    /// The URI without query and fragment (§4.2 `htu`).
    static func targetURI(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.query = nil
        components.fragment = nil
        return components.string ?? url
    }
}
