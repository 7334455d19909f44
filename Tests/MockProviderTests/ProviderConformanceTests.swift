import Foundation
import JWTKit
import MockProvider
import Testing

/// The provider with no rules is the correct provider every scenario departs from, so it is held
/// to what it claims, as a conforming client would check it: its discovery documents (RFC 8414 §2,
/// OpenID Connect Discovery §3, §4.3), the token response of each grant (RFC 6749 §5.1), and the
/// ID token of each grant that signs the user in and of its refresh (OpenID Connect Core §2,
/// §3.1.3.7, §12.2), verified by JWTKit with the key the JWKS publishes under the token's `kid`.
/// For a confidential and a public client alike (RFC 6749 §2.1).
@Suite("The provider without rules does what its metadata claims and the specifications require", .serialized)
struct ProviderConformanceTests {
    /// How the client is registered: by its secret, or as a public client.
    static let registrations: [ClientAuthenticationMethod] = [.clientSecret, .publicClient]

    static func settings(
        _ registration: ClientAuthenticationMethod,
        algorithm: IDTokenAlgorithm = .rs256
    ) -> ProviderSettings {
        var settings = ProviderSettings(idTokens: IDTokenPolicy(algorithm: algorithm))
        settings.clientAuthentication = registration
        return settings
    }

    // MARK: Discovery

    @Test(
        "both discovery documents hold their REQUIRED members, list RS256, name the issuer they are served under and only endpoints of the provider",
        arguments: ClientAuthenticationMethod.allCases,
        [IDTokenAlgorithm.rs256, .es256]
    )
    func discovery(_ registration: ClientAuthenticationMethod, _ algorithm: IDTokenAlgorithm) async throws {
        try await RunningProvider.with(Self.settings(registration, algorithm: algorithm)) { provider in
            let openID = try await Self.document(provider, at: Endpoint.openIDConfiguration)
            // OpenID Connect Discovery §3.
            Self.expectRequired(
                [
                    "issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported",
                    "subject_types_supported", "id_token_signing_alg_values_supported",
                ],
                in: openID
            )
            let algorithms = Self.strings(openID["id_token_signing_alg_values_supported"])
            #expect(algorithms.contains("RS256"), "Discovery §3: RS256 MUST be included; \(algorithms)")
            #expect(algorithms.contains(algorithm.rawValue), "the registered algorithm is listed; \(algorithms)")
            #expect(!algorithms.contains("none"))
            let subjectTypes = Self.strings(openID["subject_types_supported"])
            #expect(!subjectTypes.isEmpty && subjectTypes.allSatisfy(["public", "pairwise"].contains))
            #expect(Self.strings(openID["scopes_supported"]).contains("openid"))
            #expect(openID["userinfo_endpoint"]?.stringValue != nil, "RECOMMENDED, and the provider serves one")

            let oauth = try await Self.document(provider, at: Endpoint.metadata)
            // RFC 8414 §2.
            Self.expectRequired(
                ["issuer", "authorization_endpoint", "token_endpoint", "response_types_supported"],
                in: oauth
            )

            for (endpoint, document) in [(Endpoint.openIDConfiguration, openID), (.metadata, oauth)] {
                // Discovery §4.3, RFC 8414 §3.3: the issuer is the URL the document was fetched under.
                #expect(
                    document["issuer"]?.stringValue.map { $0 + endpoint.path } == provider.server.baseURL
                        + endpoint.path,
                    "\(endpoint)"
                )
                Self.expectEndpointsOnTheProvider(document, provider)
                #expect(Self.strings(document["response_types_supported"]).contains("code"))
                #expect(Self.strings(document["code_challenge_methods_supported"]).contains("S256"))
                #expect(
                    Set(Self.strings(document["grant_types_supported"])).isSuperset(of: [
                        "authorization_code", "refresh_token", GrantType.deviceCode.rawValue,
                    ])
                )
                let methods = Self.strings(document["token_endpoint_auth_methods_supported"])
                #expect(methods == Self.authenticationMethodNames(registration), "\(methods)")
                if methods.contains("private_key_jwt") || methods.contains("client_secret_jwt") {
                    // RFC 8414 §2: MUST be present when either assertion method is listed.
                    let signing = Self.strings(document["token_endpoint_auth_signing_alg_values_supported"])
                    #expect(!signing.isEmpty && !signing.contains("none"), "\(signing)")
                }
            }
        }
    }

    /// What a registration's metadata must list: RFC 7591 §2's names.
    static func authenticationMethodNames(_ registration: ClientAuthenticationMethod) -> [String] {
        switch registration {
        case .clientSecret: ["client_secret_basic", "client_secret_post"]
        case .privateKeyJWT: ["private_key_jwt"]
        case .clientSecretJWT: ["client_secret_jwt"]
        case .publicClient: ["none"]
        }
    }

    // MARK: Token responses

    @Test(
        "each grant's token response is RFC 6749 §5.1: access_token, token_type, expires_in, refresh_token where due, no-store; no ID token without openid",
        arguments: Self.registrations,
        RegisteredClient.Grant.allCases
    )
    func tokenResponse(_ registration: ClientAuthenticationMethod, _ grant: RegisteredClient.Grant) async throws {
        try await RunningProvider.with(Self.settings(registration)) { provider in
            let answer = try await RegisteredClient(provider: provider).tokens(by: grant, scope: "profile")
            if grant == .clientCredentials, registration == .publicClient {
                // RFC 6749 §4.4: confidential clients only.
                #expect(answer.status == 400, "\(answer.body)")
                #expect(answer.json?["error"] == .string("unauthorized_client"), "\(answer.body)")
                return
            }
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.headers["Content-Type"].first?.hasPrefix("application/json") == true)
            #expect(answer.headers["Cache-Control"].first == "no-store")
            #expect(answer.headers["Pragma"].first == "no-cache")
            let accessToken = try #require(answer.json?["access_token"]?.stringValue, "\(answer.body)")
            #expect(!accessToken.isEmpty)
            #expect(answer.json?["token_type"]?.stringValue?.lowercased() == "bearer", "\(answer.body)")
            if case .integer(let expiresIn)? = answer.json?["expires_in"] {
                #expect(expiresIn > 0)
            } else {
                Issue.record("expires_in is not an integer: \(answer.body)")
            }
            let refreshToken = answer.json?["refresh_token"]?.stringValue
            if grant == .clientCredentials {
                #expect(answer.json?["refresh_token"] == nil, "RFC 6749 §4.4.3: SHOULD NOT be included")
            } else {
                #expect(refreshToken?.isEmpty == false, "\(answer.body)")
            }
            #expect(answer.json?["id_token"] == nil, "no openid scope, no ID token: \(answer.body)")
            #expect(try await provider.resource(bearer: accessToken).status == 200, "the access token works")
        }
    }

    // MARK: ID tokens

    @Test(
        "each grant that signs the user in with scope openid carries an ID token, and so does its refresh (OIDC Core §2, §12.2)",
        arguments: Self.registrations,
        RegisteredClient.Grant.userGrants
    )
    func idTokens(_ registration: ClientAuthenticationMethod, _ grant: RegisteredClient.Grant) async throws {
        try await RunningProvider.with(Self.settings(registration)) { provider in
            let client = RegisteredClient(provider: provider)
            let answer = try await client.tokens(by: grant, scope: "openid profile")
            #expect(answer.status == 200, "\(answer.body)")
            let original = try await Self.verifiedIDToken(answer, provider)
            #expect(original.claims["auth_time"] != nil)
            // OIDC Core §3.1.3.3: a nonce is echoed when the authentication request sent one.
            #expect(
                original.claims["nonce"] == (grant == .authorizationCode ? .string(RegisteredClient.nonce) : nil)
            )

            provider.provider.clock.advance(by: .seconds(600))
            let refreshToken = try #require(answer.json?["refresh_token"]?.stringValue)
            let refreshed = try await Self.verifiedIDToken(try await client.refresh(refreshToken), provider)
            // OIDC Core §12.2: the original's iss, sub, aud and auth_time; iat now; azp only if
            // the original had one; and, per the errata, no nonce.
            for claim in ["iss", "sub", "aud", "auth_time", "azp"] {
                #expect(refreshed.claims[claim] == original.claims[claim], "\(claim)")
            }
            #expect(refreshed.claims["iat"] == .integer(Self.unixNow(provider)))
            #expect(refreshed.claims["nonce"] == nil, "§12.2: SHOULD NOT carry a nonce")
        }
    }

    @Test("the client credentials grant signs no user in: no ID token, whatever the scope")
    func clientCredentialsHasNoIDToken() async throws {
        try await RunningProvider.with(Self.settings(.clientSecret)) { provider in
            let answer = try await RegisteredClient(provider: provider).tokens(
                by: .clientCredentials,
                scope: "openid profile"
            )
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.json?["id_token"] == nil, "\(answer.body)")
        }
    }

    /// The token response's ID token, its signature verified by JWTKit with the key the provider's
    /// JWKS (found by discovery) publishes under the token's `kid`, and its required claims checked.
    static func verifiedIDToken(
        _ answer: RunningProvider.Answer,
        _ provider: RunningProvider
    ) async throws -> DecodedJWS {
        let token = try OpenIDSignIn.idToken(answer)
        let algorithm = provider.settings.idTokens.algorithm.rawValue
        #expect(token.header["alg"] == .string(algorithm))
        let kid = try #require(token.header["kid"]?.stringValue, "OIDC Core §10.1: several keys, so a kid")
        let jwksURI = try #require(try await document(provider, at: .openIDConfiguration)["jwks_uri"]?.stringValue)
        let jwks = try JSONDecoder().decode(
            JWKS.self,
            from: Data(try await provider.send("GET", url: jwksURI).body.utf8)
        )
        let key = try #require(jwks.keys.first { $0.keyIdentifier == JWKIdentifier(string: kid) }, "no key \(kid)")
        let verifier = try await JWTKeyCollection().add(jwk: key)
        let claims = try await verifier.verify(token.compact, as: RequiredIDTokenClaims.self)

        // OIDC Core §2: the required claims, and what they must say.
        #expect(claims.iss.value == provider.provider.issuer)
        #expect(!claims.sub.value.isEmpty && claims.sub.value.utf8.count <= 255)
        #expect(claims.aud.value.contains(provider.settings.client.id), "\(claims.aud.value)")
        #expect(claims.aud.value.count == 1 || token.claims["azp"] == .string(provider.settings.client.id))
        #expect(claims.iat.value == Date(timeIntervalSince1970: TimeInterval(unixNow(provider))))
        #expect(claims.exp.value > claims.iat.value)
        return token
    }

    static func unixNow(_ provider: RunningProvider) -> Int {
        Int(provider.provider.clock.now.timeIntervalSince1970)
    }

    // MARK: Reading documents

    static func document(_ provider: RunningProvider, at endpoint: Endpoint) async throws -> JSONValue {
        let answer = try await provider.send("GET", path: endpoint.path)
        #expect(answer.status == 200)
        #expect(answer.headers["Content-Type"].first?.hasPrefix("application/json") == true)
        return try #require(answer.json, "\(answer.body)")
    }

    static func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap(\.stringValue)
    }

    /// Each member is present: a non-empty string, or a non-empty array of strings.
    static func expectRequired(_ members: [String], in document: JSONValue) {
        for member in members {
            switch document[member] {
            case .string(let text)?: #expect(!text.isEmpty, "\(member)")
            case .array(let items)?: #expect(!items.isEmpty && items.allSatisfy { $0.stringValue != nil }, "\(member)")
            default: Issue.record("REQUIRED member \(member) is missing or of the wrong type")
            }
        }
    }

    /// Every endpoint the document names (`*_endpoint`, `jwks_uri`) is an absolute http or https
    /// URL on the provider's origin, without a fragment (RFC 8414 §2).
    static func expectEndpointsOnTheProvider(_ document: JSONValue, _ provider: RunningProvider) {
        guard case .object(let members) = document else { return }
        let origin = URLComponents(string: provider.server.baseURL)
        let endpoints = members.filter { $0.key.hasSuffix("_endpoint") || $0.key == "jwks_uri" }
        #expect(endpoints.count >= 4)
        for (name, value) in endpoints {
            guard let url = value.stringValue.flatMap(URLComponents.init(string:)) else {
                Issue.record("\(name) is not a URL: \(value)")
                continue
            }
            #expect(["http", "https"].contains(url.scheme), "\(name): \(value)")
            #expect(url.scheme == origin?.scheme && url.host == origin?.host && url.port == origin?.port, "\(name)")
            #expect(url.fragment == nil && url.path.hasPrefix("/"), "\(name): \(value)")
        }
    }
}

/// OpenID Connect Core §2's REQUIRED claims, typed: JWTKit refuses a token that lacks one or
/// carries it in the wrong type. Time is not judged here: the tokens live on the virtual clock.
struct RequiredIDTokenClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim

    func verify(using _: some JWTAlgorithm) async throws {}
}
