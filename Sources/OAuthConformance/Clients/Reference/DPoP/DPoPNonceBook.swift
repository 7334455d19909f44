import Foundation
import MockProvider
import NIOHTTP1

/// The DPoP nonces the client holds (RFC 9449 §8, §9): the authorization server's, for token
/// requests, apart from each resource server's, since a nonce is good only where it was issued.
struct DPoPNonceBook: Sendable {
    enum Server: Hashable, Sendable {
        case authorizationServer
        /// A resource server, by origin (scheme, host and port).
        case resource(origin: String)

        static func resource(at url: String) -> Server {
            guard let components = URLComponents(string: url), let scheme = components.scheme,
                let host = components.host
            else { return .resource(origin: url) }
            return .resource(origin: "\(scheme)://\(host):\(components.port ?? (scheme == "https" ? 443 : 80))")
        }
    }

    private var nonces: [Server: String] = [:]

    func nonce(for server: Server) -> String? { nonces[server] }

    mutating func forget(_ server: Server) {
        nonces[server] = nil
    }

    /// Keeps the `DPoP-Nonce` an answer carries, if any; `true` when it is new.
    @discardableResult
    mutating func note(_ headers: HTTPHeaders, from server: Server) -> Bool {
        guard let nonce = headers.first(name: "DPoP-Nonce"), !nonce.isEmpty, nonces[server] != nonce else {
            return false
        }
        nonces[server] = nonce
        return true
    }

    /// §8 (token endpoint: 400 `use_dpop_nonce`) and §9 (resource: 401 with a DPoP challenge
    /// naming `use_dpop_nonce`).
    static func isNonceDemand(status: Int, headers: HTTPHeaders, body: String) -> Bool {
        switch status {
        case 400: JSONValue.parse(body)?["error"]?.stringValue == "use_dpop_nonce"
        case 401:
            headers["WWW-Authenticate"].contains {
                $0.lowercased().hasPrefix("dpop") && $0.contains("error=\"use_dpop_nonce\"")
            }
        default: false
        }
    }
}
