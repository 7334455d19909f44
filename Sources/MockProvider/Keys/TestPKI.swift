import Crypto
import Foundation
import SwiftASN1
import X509

/// The certificate a TLS listener presents, one per kind of fault a client must refuse
/// (RFC 6749 §10.9, RFC 6750 §5.3), and one it must accept.
public enum CertificateVariant: String, Sendable, Hashable, CaseIterable {
    /// Issued by the test CA for localhost and 127.0.0.1: accepted by a client given the CA.
    case valid
    /// Signed by its own key, no CA behind it.
    case selfSigned = "self_signed"
    /// Issued by the test CA, but its validity ended yesterday.
    case expired
    /// Issued by the test CA for another host name.
    case wrongHost = "wrong_host"
    /// Issued by the test CA for localhost, with a key other than the one clients pin.
    case otherKey = "other_key"
}

/// A certificate authority and server certificates minted at start-up, so no key or certificate
/// is ever committed and every run has fresh ones. Validity is in real time: TLS stacks check it.
public struct TestPKI: Sendable {
    public struct ServerIdentity: Sendable {
        /// The leaf certificate, DER.
        public var certificateDER: [UInt8]
        public var privateKeyPEM: String
    }

    /// The CA certificate in PEM, for clients to trust.
    public let caCertificatePEM: String
    /// SHA-256 of the DER SubjectPublicKeyInfo of the key `valid`, `expired` and `wrong_host`
    /// present, base64: the value a pinning client pins (`other_key` presents another).
    public let pinnedPublicKeySHA256: String
    private let identities: [CertificateVariant: ServerIdentity]

    public func identity(_ variant: CertificateVariant) -> ServerIdentity {
        identities[variant]!  // minted for every case in init
    }

    /// Certificates valid (or, for `expired`, expired) at `now` and also at `alsoAt`: the
    /// scenario's virtual time, which is what a client living on it (under libfaketime) checks
    /// validity against.
    public init(now realNow: Date = Date(), alsoAt other: Date? = nil) throws {
        let now = min(realNow, other ?? realNow)
        let latest = max(realNow, other ?? realNow)
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("OAuthConformance test CA") }
        let ca = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(caKey.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: latest + 7 * 86_400,
            issuer: caName,
            subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(caKey)
        )
        let pinnedKey = P256.Signing.PrivateKey()
        func leaf(
            key: P256.Signing.PrivateKey,
            hosts: [String],
            notAfter: Date,
            selfSigned: Bool = false
        ) throws -> ServerIdentity {
            let subject = try DistinguishedName { CommonName(hosts[0]) }
            let certificate = try Certificate(
                version: .v3,
                serialNumber: .init(),
                publicKey: .init(key.publicKey),
                notValidBefore: min(now - 3600, notAfter - 3600),
                notValidAfter: notAfter,
                issuer: selfSigned ? subject : caName,
                subject: subject,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(
                        hosts.map { host in
                            host == "127.0.0.1"
                                ? .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])) : .dnsName(host)
                        }
                    )
                },
                issuerPrivateKey: .init(selfSigned ? key : caKey)
            )
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return ServerIdentity(certificateDER: serializer.serializedBytes, privateKeyPEM: key.pemRepresentation)
        }
        let local = ["localhost", "127.0.0.1"]
        let tomorrow = latest + 86_400
        identities = [
            .valid: try leaf(key: pinnedKey, hosts: local, notAfter: tomorrow),
            .selfSigned: try leaf(key: P256.Signing.PrivateKey(), hosts: local, notAfter: tomorrow, selfSigned: true),
            .expired: try leaf(key: pinnedKey, hosts: local, notAfter: now - 86_400),
            .wrongHost: try leaf(key: pinnedKey, hosts: ["wrong-host.example"], notAfter: tomorrow),
            .otherKey: try leaf(key: P256.Signing.PrivateKey(), hosts: local, notAfter: tomorrow),
        ]
        caCertificatePEM = try ca.serializeAsPEM().pemString
        pinnedPublicKeySHA256 = Self.publicKeySHA256(pinnedKey.publicKey.derRepresentation)
    }

    /// base64(SHA-256(SubjectPublicKeyInfo DER)), the HPKP-style pin format.
    public static func publicKeySHA256(_ subjectPublicKeyInfoDER: some DataProtocol) -> String {
        Data(SHA256.hash(data: Data(subjectPublicKeyInfoDER))).base64EncodedString()
    }
}
