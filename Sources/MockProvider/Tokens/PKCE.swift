import Crypto
import Foundation

/// RFC 7636 §4.6: the verifier presented at the token endpoint must produce the challenge
/// sent to the authorization endpoint.
enum PKCE {
    static func verify(verifier: String, challenge: String, method: CodeChallengeMethod) -> Bool {
        switch method {
        case .plain: verifier == challenge
        case .s256: s256Challenge(for: verifier) == challenge
        }
    }

    /// BASE64URL(SHA256(ASCII(verifier))) without padding.
    static func s256Challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// RFC 7636 §4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~].
    static func isWellFormedVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.count) && verifier.utf8.allSatisfy(ASCII.isUnreserved)
    }
}
