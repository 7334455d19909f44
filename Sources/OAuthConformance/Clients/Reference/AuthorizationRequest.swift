import Crypto
import Foundation

/// One authorization code flow of the reference client, from the URL it opens to the redirect it
/// accepts: RFC 6749 §4.1 with PKCE S256 (RFC 7636), a fresh unguessable `state` (§10.12) and the
/// RFC 9207 issuer check. Each knob of `ClientBehaviour` that weakens it is a defect's.
struct AuthorizationRequest: Sendable {
    let state: String
    let codeVerifier: String
    let redirectURI: String
    /// Set for an OpenID Connect authentication request, which asks for scope `openid` and binds
    /// the ID token to this request (OIDC Core §3.1.2.1).
    var nonce: String? = nil
    /// The scope asked for, when the flow chose one (an MCP client's, from the server's challenge).
    var scope: String? = nil
    /// RFC 8707 §2: the resource the tokens are for (an MCP client's server), in the request.
    var resource: String? = nil

    /// 32 random bytes, base64url: 256 bits, well above the 128 that RFC 6749 §10.10 asks for.
    static func random() -> String {
        base64URL(Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// RFC 7636 §4.2: BASE64URL(SHA256(verifier)).
    static func s256Challenge(for verifier: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    /// The URL to open, with the PKCE parameters the behaviour allows.
    func url(endpoint: String, clientID: String, pkce: ClientBehaviour.PKCEUse) -> String {
        Self.url(endpoint: endpoint, parameters(clientID: clientID, pkce: pkce))
    }

    /// The request's parameters: in the URL's query, or pushed to the provider (RFC 9126 §2.1).
    func parameters(clientID: String, pkce: ClientBehaviour.PKCEUse) -> [URLQueryItem] {
        var items = [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: clientID),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "state", value: state),
        ]
        if let nonce {
            items += [URLQueryItem(name: "scope", value: "openid"), URLQueryItem(name: "nonce", value: nonce)]
        } else if let scope {
            items.append(URLQueryItem(name: "scope", value: scope))
        }
        if let resource { items.append(URLQueryItem(name: "resource", value: resource)) }
        switch pkce {
        case .s256:
            items += [
                URLQueryItem(name: "code_challenge", value: Self.s256Challenge(for: codeVerifier)),
                URLQueryItem(name: "code_challenge_method", value: "S256"),
            ]
        case .plain:
            items += [
                URLQueryItem(name: "code_challenge", value: codeVerifier),
                URLQueryItem(name: "code_challenge_method", value: "plain"),
            ]
        case .none:
            break
        }
        return items
    }

    /// `endpoint` with these query parameters added.
    static func url(endpoint: String, _ items: [URLQueryItem]) -> String {
        var components = URLComponents(string: endpoint) ?? URLComponents()
        components.queryItems = (components.queryItems ?? []) + items
        // URLComponents leaves '+' alone in queries, which form decoding reads as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? endpoint
    }

    /// What the redirect said, once it passed the checks the behaviour performs.
    enum Response: Equatable {
        case code(String)
        case error(code: String, description: String?)
    }

    /// Reads the redirect the browser landed on. `state` and `iss` are checked before anything
    /// else, error responses included (RFC 9207 §2.4), so a forged redirect is never acted upon.
    func read(redirect: String, issuer: ExpectedIssuer, behaviour: ClientBehaviour) -> Result<Response, ClientFailure> {
        guard let components = URLComponents(string: redirect), redirect.hasPrefix(redirectURI.split(separator: "?")[0])
        else {
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message: "the browser was sent to \(redirect), not to the redirect URI \(redirectURI)"
                )
            )
        }
        let parameters = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") },
            uniquingKeysWith: { first, _ in first }
        )
        if behaviour.checksState, parameters["state"] != state {
            let received = parameters["state"].map { "'\($0)'" } ?? "none"
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message:
                        "the authorization response's state (\(received)) is not the one this client sent; refusing it (RFC 6749 §10.12)"
                )
            )
        }
        if behaviour.checksIssuer, !issuer.accepts(parameters["iss"]) {
            let received = parameters["iss"].map { "'\($0)'" } ?? "none"
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message:
                        "the authorization response's iss (\(received)) is not the issuer \(issuer.identifier) (RFC 9207 §2.4)"
                )
            )
        }
        if let error = parameters["error"] {
            return .success(.error(code: error, description: parameters["error_description"]))
        }
        guard let code = parameters["code"], !code.isEmpty else {
            return .failure(
                ClientFailure(.protocolViolation, message: "the authorization response has neither code nor error")
            )
        }
        return .success(.code(code))
    }
}
