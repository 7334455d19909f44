import Crypto
import Foundation
import JWTKit

/// The JOSE half of ID token validation: the algorithm must be the registered one, the key is the
/// one the `kid` names in the provider's JWKS (or the client secret for HS256), and JWTKit verifies
/// the signature with that key pinned to that algorithm, so the token's header can never choose how
/// it is checked (RFC 8725 §2.1, §3.1).
struct IDTokenSignatureCheck: Sendable {
    let registration: IDTokenValidator.Registration
    let behaviour: OpenIDConnectBehaviour
    let keys: JWKSCache

    /// The algorithm the token was checked with, for `at_hash`.
    func verify(_ token: SignedIDToken) async -> Result<String, OpenIDConnectRefusal> {
        guard let algorithmName = token.algorithm else { return .failure(.malformed("its header has no alg")) }
        // No header extension is understood here, so any `crit` refuses the token.
        if token.header.fields["crit"] != nil {
            return .failure(.criticalHeaderNotUnderstood(token.header.crit ?? []))
        }
        let verifier = JWTKeyCollection()
        if algorithmName == "none" {
            guard behaviour.acceptsUnsignedIDTokens else { return .failure(.unsigned) }
            // JWTKit's none verifier still insists on an empty signature (RFC 7519 §6.1).
            await verifier.addUnsecuredNone()
        } else {
            guard let algorithm = chosenAlgorithm(named: algorithmName) else {
                return .failure(
                    .algorithmNotRegistered(found: algorithmName, registered: registration.signingAlgorithm.rawValue)
                )
            }
            if case .failure(let refusal) = await addKey(for: algorithm, keyID: token.keyID, to: verifier) {
                return .failure(refusal)
            }
        }
        guard behaviour.checksIDTokenSignature else { return .success(algorithmName) }
        do {
            _ = try await verifier.verify(token.compact, as: IDTokenClaimSet.self)
            return .success(algorithmName)
        } catch let error as JWTError where error.errorType == .malformedToken {
            return .failure(.malformed(error.reason ?? "its signature is not base64url"))
        } catch {
            return .failure(.signatureInvalid(keyID: token.keyID))
        }
    }

    /// The registered algorithm; a confused client takes any algorithm it knows from the header.
    private func chosenAlgorithm(named name: String) -> IDTokenSigningAlgorithm? {
        if name == registration.signingAlgorithm.rawValue { return registration.signingAlgorithm }
        return behaviour.takesAlgorithmFromTokenHeader ? IDTokenSigningAlgorithm(rawValue: name) : nil
    }

    private func addKey(
        for algorithm: IDTokenSigningAlgorithm,
        keyID: String?,
        to verifier: JWTKeyCollection
    ) async -> Result<Void, OpenIDConnectRefusal> {
        do {
            switch algorithm {
            case .hs256 where registration.signingAlgorithm == .hs256:
                guard let secret = registration.clientSecret, !secret.isEmpty else { return .failure(.noClientSecret) }
                // RFC 7518 §3.2; JWTKit also asserts it, which would crash a debug build.
                guard secret.utf8.count >= 32 else { return .failure(.clientSecretTooShort(bytes: secret.utf8.count)) }
                await verifier.add(hmac: HMACKey(from: Data(secret.utf8)), digestAlgorithm: .sha256)
            case .hs256:
                // Only a client that takes the algorithm from the header gets here: it keys HMAC with
                // the provider's public key, the attack RFC 8725 §2.1 describes.
                let key = try await providerKey(keyID: keyID, algorithm: algorithm) { $0.keyType != .octetKeyPair }
                    .get()
                await verifier.add(hmac: HMACKey(from: Data(try Self.publicKeyPEM(key).utf8)), digestAlgorithm: .sha256)
            case .rs256, .ps256:
                let key = try await providerKey(
                    keyID: keyID,
                    algorithm: algorithm,
                    where: { algorithm.canVerify(with: $0) }
                ).get()
                let rsa = try Insecure.RSA.PublicKey(modulus: key.modulus ?? "", exponent: key.exponent ?? "")
                if algorithm == .rs256 {
                    await verifier.add(rsa: rsa, digestAlgorithm: .sha256)
                } else {
                    await verifier.add(pss: rsa, digestAlgorithm: .sha256)
                }
            case .es256:
                let key = try await providerKey(
                    keyID: keyID,
                    algorithm: algorithm,
                    where: { algorithm.canVerify(with: $0) }
                ).get()
                await verifier.add(ecdsa: try ES256PublicKey(parameters: (key.x ?? "", key.y ?? "")))
            }
            return .success(())
        } catch let refusal as OpenIDConnectRefusal {
            return .failure(refusal)
        } catch {
            return .failure(
                .keySetUnavailable(
                    "key '\(keyID ?? "without kid")' in the JWKS is not a usable \(algorithm.rawValue) key"
                )
            )
        }
    }

    private func providerKey(
        keyID: String?,
        algorithm: IDTokenSigningAlgorithm,
        where suitable: @escaping @Sendable (JWK) -> Bool
    ) async -> Result<JWK, OpenIDConnectRefusal> {
        switch await keys.key(id: keyID, where: suitable) {
        case .found(let key): .success(key)
        case .unavailable(let detail): .failure(.keySetUnavailable(detail))
        case .unknownKeyID(let fetched): .failure(.unknownKeyID(keyID ?? "", fetchedForThisToken: fetched))
        case .notUsable: .failure(.keyNotUsable(keyID: keyID ?? "", algorithm: algorithm.rawValue))
        case .noSuitableKey(let fetched):
            .failure(.noKeyForAlgorithm(algorithm.rawValue, fetchedForThisToken: fetched))
        case .severalSuitableKeys(let count):
            .failure(.severalKeysAndNoKeyID(algorithm: algorithm.rawValue, candidates: count))
        }
    }

    /// The bytes a confused verifier keys HMAC with: the public key as a PEM file holds it
    /// (SubjectPublicKeyInfo, ending in a line break), which is what vulnerable libraries are handed
    /// as "the key". MockProvider's algorithm-confusion token is keyed with the same bytes.
    static func publicKeyPEM(_ key: JWK) throws -> String {
        let pem =
            key.keyType == .rsa
            ? try Insecure.RSA.PublicKey(modulus: key.modulus ?? "", exponent: key.exponent ?? "").pemRepresentation
            : try ES256PublicKey(parameters: (key.x ?? "", key.y ?? "")).pemRepresentation
        return pem.hasSuffix("\n") ? pem : pem + "\n"
    }
}
