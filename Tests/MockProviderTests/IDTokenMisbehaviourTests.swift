import Foundation
import JWTKit
import MockProvider
import Testing

@Suite("ID token misbehaviours, observed on the wire")
struct IDTokenMisbehaviourTests {
    /// A provider whose code exchanges carry an ID token altered this way.
    static func settings(_ alteration: IDTokenAlteration, policy: IDTokenPolicy = .init()) -> ProviderSettings {
        ProviderSettings(
            rules: [ProviderRule(match: RequestMatcher(endpoint: .token), action: .alterIDToken(alteration))],
            idTokens: policy
        )
    }

    static func signedIDToken(
        _ alteration: IDTokenAlteration,
        policy: IDTokenPolicy = .init()
    ) async throws -> (
        token: DecodedJWS, jwksVerifies: Bool
    ) {
        try await RunningProvider.with(settings(alteration, policy: policy)) { provider in
            let token = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
            #expect(
                provider.provider.issuedIDTokens.last?.value == token.compact,
                "the ledger records the token as sent"
            )
            return (token, try await OpenIDSignIn.verifiesAgainstJWKS(token, provider))
        }
    }

    @Test("claims are set, omitted and placed on the virtual clock; the signature stays valid")
    func claims() async throws {
        let (token, verifies) = try await Self.signedIDToken(
            IDTokenAlteration(
                set: ["iss": .string("https://evil.example"), "at_hash": .string("wrong")],
                omit: ["nonce", "sub"],
                fromNow: ["exp": .seconds(-3600), "iat": .seconds(7 * 86_400)]
            )
        )
        #expect(verifies)
        #expect(token.claims["iss"] == .string("https://evil.example"))
        #expect(token.claims["at_hash"] == .string("wrong"))
        #expect(token.claims["nonce"] == nil)
        #expect(token.claims["sub"] == nil)
        #expect(token.claims["exp"] == .integer(OpenIDSignIn.origin - 3600))
        #expect(token.claims["iat"] == .integer(OpenIDSignIn.origin + 7 * 86_400))
    }

    @Test("an aud of several values brings azp, unless azp is omitted")
    func audienceArrays() async throws {
        let audiences: JSONValue = .array([.string("conformance-client"), .string("other-app")])
        let withAZP = try await Self.signedIDToken(IDTokenAlteration(set: ["aud": audiences])).token
        #expect(withAZP.claims["aud"] == audiences)
        #expect(withAZP.claims["azp"] == .string("conformance-client"))
        let withoutAZP = try await Self.signedIDToken(IDTokenAlteration(set: ["aud": audiences], omit: ["azp"])).token
        #expect(withoutAZP.claims["aud"] == audiences)
        #expect(withoutAZP.claims["azp"] == nil)
    }

    @Test("other_key: signed by another RSA key under the published kid")
    func otherKey() async throws {
        let (token, verifies) = try await Self.signedIDToken(IDTokenAlteration(signing: .otherKey))
        #expect(token.header["kid"] == .string("rsa-1"))
        #expect(token.header["alg"] == .string("RS256"))
        #expect(!verifies)
        let other = ProviderSigningKeys.shared.otherRSA
        let otherKeys = await JWTKeyCollection().add(
            rsa: try Insecure.RSA.PublicKey(pem: other.publicKeyPEM),
            digestAlgorithm: .sha256,
            kid: JWKIdentifier(string: "rsa-1")
        )
        #expect(await OpenIDSignIn.verifies(token, with: otherKeys))
    }

    @Test("other_key under ES256: signed by the second P-256 key under ec-1")
    func otherP256Key() async throws {
        let (token, verifies) = try await Self.signedIDToken(
            IDTokenAlteration(signing: .otherKey),
            policy: IDTokenPolicy(algorithm: .es256)
        )
        #expect(token.header["kid"] == .string("ec-1"))
        #expect(token.signature.count == 64)
        #expect(!verifies)
    }

    @Test("none: alg none, no kid, an empty signature")
    func unsigned() async throws {
        let (token, verifies) = try await Self.signedIDToken(IDTokenAlteration(signing: .unsigned))
        #expect(token.header == .object(["alg": .string("none"), "typ": .string("JWT")]))
        #expect(token.compact.hasSuffix("."))
        #expect(token.signature.isEmpty)
        #expect(!verifies)
    }

    @Test("hs256_with_public_key: HS256 keyed with the PEM of the published RSA key, under its kid")
    func algorithmConfusion() async throws {
        let (token, verifies) = try await Self.signedIDToken(IDTokenAlteration(signing: .hs256WithPublicKey))
        #expect(token.header["alg"] == .string("HS256"))
        #expect(token.header["kid"] == .string("rsa-1"))
        #expect(!verifies)
        let pem = ProviderSigningKeys.shared.rsa.publicKeyPEM
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n") && pem.hasSuffix("-----END PUBLIC KEY-----\n"))
        #expect(OpenIDSignIn.isHS256(token, keyedWith: pem))
        // The PEM exactly, final line break included: without it the HMAC differs.
        #expect(!OpenIDSignIn.isHS256(token, keyedWith: pem.trimmingCharacters(in: .newlines)))
    }

    @Test("client_secret: HS256 with the client secret although the client is registered for RS256")
    func clientSecret() async throws {
        let (token, verifies) = try await Self.signedIDToken(IDTokenAlteration(signing: .clientSecret))
        #expect(token.header["alg"] == .string("HS256"))
        #expect(token.header["kid"] == nil)
        #expect(!verifies)
        #expect(OpenIDSignIn.isHS256(token, keyedWith: "conformance-secret"))
    }

    @Test("kid absent with one key published, and with several")
    func absentKeyID() async throws {
        for (publication, count) in [(IDTokenPolicy.Publication.signingKey, 1), (.allKeys, 2)] {
            let settings = Self.settings(
                IDTokenAlteration(keyID: .absent),
                policy: IDTokenPolicy(publication: publication)
            )
            try await RunningProvider.with(settings) { provider in
                let token = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
                #expect(token.header["kid"] == nil)
                #expect(try await OpenIDSignIn.publishedKeyIDs(provider).count == count)
                // Signed by the RSA key all the same: trying each published key finds it.
                let keys = try await JWTKeyCollection().add(jwksJSON: try await OpenIDSignIn.jwks(provider))
                #expect((try? await keys.verify(token.compact, as: AnyClaims.self, iteratingKeys: true)) != nil)
            }
        }
    }

    @Test("a kid in no key set, on a token the signing key signed")
    func unknownKeyID() async throws {
        try await RunningProvider.with(Self.settings(IDTokenAlteration(keyID: .replace("no-such-key")))) { provider in
            let token = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
            #expect(token.header["kid"] == .string("no-such-key"))
            #expect(try await OpenIDSignIn.publishedKeyIDs(provider) == ["rsa-1"])
            // Only the kid changed. (JWTKit itself falls back to its default key for an unknown
            // kid, so verifying against the JWKS would accept this token: the check is the client's.)
            let signingKey = await JWTKeyCollection().add(
                rsa: try Insecure.RSA.PublicKey(pem: ProviderSigningKeys.shared.rsa.publicKeyPEM),
                digestAlgorithm: .sha256,
                kid: JWKIdentifier(string: "no-such-key")
            )
            #expect(await OpenIDSignIn.verifies(token, with: signingKey))
        }
    }

    @Test("a refresh whose ID token changes sub, and one that carries none (token_response omits it)")
    func refreshMisbehaviours() async throws {
        let settings = ProviderSettings(rules: [
            ProviderRule(
                match: RequestMatcher(endpoint: .token, grant: .refreshToken, calls: .nth(1)),
                action: .alterIDToken(IDTokenAlteration(set: ["sub": .string("mallory")]))
            ),
            ProviderRule(
                match: RequestMatcher(endpoint: .token, grant: .refreshToken, calls: .nth(2)),
                action: .alterTokenResponse(TokenResponseAlteration(omit: ["id_token"]))
            ),
        ])
        try await RunningProvider.with(settings) { provider in
            let first = try OpenIDSignIn.idToken(try await OpenIDSignIn.signIn(provider))
            #expect(first.claims["sub"] == .string("alice"))
            let changed = try OpenIDSignIn.idToken(try await OpenIDSignIn.refresh(provider, "rt-1"))
            #expect(changed.claims["sub"] == .string("mallory"))
            #expect(try await OpenIDSignIn.verifiesAgainstJWKS(changed, provider))
            let without = try await OpenIDSignIn.refresh(provider, "rt-1")
            #expect(without.status == 200)
            #expect(without.json?["access_token"] == .string("at-3"))
            #expect(without.json?["id_token"] == nil)
        }
    }
}
