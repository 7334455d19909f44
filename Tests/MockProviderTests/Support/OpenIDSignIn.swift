import Crypto
import Foundation
import JWTKit
import MockProvider
import Testing

/// Plays an OpenID Connect relying party against a running provider: the browser's GET /authorize
/// with scope `openid`, the code exchange and refreshes, and the JWS and JWKS reading a client does.
enum OpenIDSignIn {
    static let redirectURI = "http://127.0.0.1:4711/callback"
    static let nonce = "n-0S6_WzA2Mj"
    /// Unix time of the virtual clock's origin, where every test's clock starts.
    static let origin = Int(VirtualClock.defaultOrigin.timeIntervalSince1970)

    /// The authorization code flow with scope `openid`; returns the token response.
    static func signIn(
        _ provider: RunningProvider,
        scope: String = "openid profile",
        nonce: String? = nonce
    ) async throws -> RunningProvider.Answer {
        var components = URLComponents()
        components.queryItems =
            [
                URLQueryItem(name: "response_type", value: "code"),
                URLQueryItem(name: "client_id", value: provider.settings.client.id),
                URLQueryItem(name: "redirect_uri", value: redirectURI),
                URLQueryItem(name: "scope", value: scope),
                URLQueryItem(name: "state", value: "s-1"),
            ] + (nonce.map { [URLQueryItem(name: "nonce", value: $0)] } ?? [])
        let redirect = try await provider.send("GET", path: "/authorize?" + (components.percentEncodedQuery ?? ""))
        let location = try #require(redirect.headers["Location"].first.flatMap(URLComponents.init(string:)))
        let code = try #require(location.queryItems?.first { $0.name == "code" }?.value)
        return try await provider.token(
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI)],
            basic: provider.settings.client
        )
    }

    static func refresh(_ provider: RunningProvider, _ refreshToken: String) async throws -> RunningProvider.Answer {
        try await provider.token(
            [("grant_type", "refresh_token"), ("refresh_token", refreshToken)],
            basic: provider.settings.client
        )
    }

    /// The `id_token` of a token response, decoded.
    static func idToken(_ answer: RunningProvider.Answer) throws -> DecodedJWS {
        try DecodedJWS(try #require(answer.json?["id_token"]?.stringValue, "no id_token in \(answer.body)"))
    }

    /// The JWK Set the provider publishes now.
    static func jwks(_ provider: RunningProvider) async throws -> String {
        let answer = try await provider.send("GET", path: "/jwks")
        try #require(answer.status == 200)
        return answer.body
    }

    /// The `kid`s the provider publishes now, in order.
    static func publishedKeyIDs(_ provider: RunningProvider) async throws -> [String] {
        let keys = JSONValue.parse(try await jwks(provider))?["keys"]
        guard case .array(let list)? = keys else { return [] }
        return list.compactMap { $0["kid"]?.stringValue }
    }

    /// Whether JWTKit, a sound verifier, accepts the token's signature under these keys.
    static func verifies(_ token: DecodedJWS, with keys: JWTKeyCollection) async -> Bool {
        (try? await keys.verify(token.compact, as: AnyClaims.self)) != nil
    }

    /// Whether the token's signature is HMAC-SHA256 of its signing input under `secret`. Computed
    /// here rather than by JWTKit, which refuses keys shorter than 32 bytes such as the client secret.
    static func isHS256(_ token: DecodedJWS, keyedWith secret: String) -> Bool {
        let input = token.compact.split(separator: ".", omittingEmptySubsequences: false).prefix(2).joined(
            separator: "."
        )
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return Data(mac) == token.signature
    }

    /// Whether the token verifies against the JWKS the provider publishes now.
    static func verifiesAgainstJWKS(_ token: DecodedJWS, _ provider: RunningProvider) async throws -> Bool {
        let keys = try await JWTKeyCollection().add(jwksJSON: try await jwks(provider))
        return await verifies(token, with: keys)
    }
}

/// A compact JWS split into its parts, read without verifying anything.
struct DecodedJWS {
    let compact: String
    let header: JSONValue
    let claims: JSONValue
    let signature: Data

    init(_ compact: String) throws {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3, "not a compact JWS: \(compact)")
        self.compact = compact
        header = try #require(JSONValue.parse(String(decoding: try Self.decode(parts[0]), as: UTF8.self)))
        claims = try #require(JSONValue.parse(String(decoding: try Self.decode(parts[1]), as: UTF8.self)))
        signature = try Self.decode(parts[2])
    }

    private static func decode(_ part: String) throws -> Data {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return try #require(Data(base64Encoded: base64), "not base64url: \(part)")
    }
}

/// Claims JWTKit decodes once the signature holds; the tests read the claims from `DecodedJWS`.
struct AnyClaims: JWTPayload {
    var sub: String?
    func verify(using _: some JWTAlgorithm) async throws {}
}
