import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// `provider.id_tokens` and the `id_token:` rule action decode into exactly what they say, and
/// mistakes in them are reported where they stand.
@Suite("Decoding OpenID Connect provider settings and rules")
struct IDTokenDecodingTests {
    func provider(_ yaml: String) throws -> ProviderSettings {
        try Fixtures.scenario(ProviderDecodingTests.scenarioText(provider: yaml)).provider
    }

    @Test("id_tokens: algorithm, lifetime, JWKS publication and key rotation")
    func policy() throws {
        #expect(try provider("seed: 1").idTokens == IDTokenPolicy())
        let settings = try provider(
            """
            id_tokens:
              alg: ES256
              lifetime: 5m
              jwks: all_keys
              rotate_keys: { at: 30m, retire_old: true }
            """
        )
        #expect(
            settings.idTokens
                == IDTokenPolicy(
                    algorithm: .es256,
                    lifetime: .seconds(300),
                    publication: .allKeys,
                    rotation: KeyRotation(.at(.seconds(1800)), retireOldKey: true)
                )
        )
        #expect(
            try provider("id_tokens: { rotate_keys: { from_id_token: 2 } }").idTokens.rotation
                == KeyRotation(.fromIDToken(2))
        )
    }

    @Test("id_token rules: claims set, omitted and placed in time; signature; kid")
    func alterations() throws {
        let rules = try provider(
            """
            rules:
              - when: { endpoint: token, grant: authorization_code }
                id_token:
                  set: { iss: "https://evil.example", aud: [conformance-client, other-app], exp: "3600" }
                  omit: [nonce, azp]
                  from_now: { iat: -7d, auth_time: +1h }
              - { id_token: { sign: other_key, kid: absent } }
              - { id_token: { sign: hs256_with_public_key, kid: no-such-key } }
              - { when: { grant: refresh_token }, sequence: [{ id_token: { sign: none } }, { token_response: { omit: [id_token] } }] }
            """
        ).rules
        // An id_token rule takes token requests only, with or without `when: { endpoint: token }`.
        #expect(rules.map(\.match.endpoint) == [.token, .token, .token, nil])
        #expect(
            rules.map(\.action) == [
                .alterIDToken(
                    IDTokenAlteration(
                        set: [
                            "iss": .string("https://evil.example"),
                            "aud": .array([.string("conformance-client"), .string("other-app")]),
                            "exp": .string("3600"),
                        ],
                        omit: ["nonce", "azp"],
                        fromNow: ["iat": .seconds(-7 * 86_400), "auth_time": .seconds(3600)]
                    )
                ),
                .alterIDToken(IDTokenAlteration(signing: .otherKey, keyID: .absent)),
                .alterIDToken(IDTokenAlteration(signing: .hs256WithPublicKey, keyID: .replace("no-such-key"))),
                .sequence([
                    .alterIDToken(IDTokenAlteration(signing: .unsigned)),
                    .alterTokenResponse(TokenResponseAlteration(omit: ["id_token"])),
                ]),
            ]
        )
    }

    @Test("the new endpoints are rule targets: discovery, JWKS and userinfo")
    func endpoints() throws {
        let rules = try provider(
            """
            rules:
              - { when: { endpoint: openid_configuration }, token_response: { issuer: "https://evil.example" } }
              - { when: { endpoint: jwks }, respond: { status: 503 } }
              - { when: { endpoint: userinfo }, token_response: { sub: mallory } }
            """
        ).rules
        #expect(rules.map(\.match.endpoint) == [.openIDConfiguration, .jwks, .userinfo])
    }

    @Test("mistakes are reported where they are, with what would be right")
    func diagnostics() {
        let found = Fixtures.diagnostics(
            ProviderDecodingTests.scenarioText(
                provider: """
                    id_tokens: { alg: RS265, rotate_keys: { at: 30m, from_id_token: 2 } }
                    rules:
                      - { id_token: { sign: other-key } }
                      - { id_token: { from_now: { exp: 1 hour } } }
                      - { id_token: { set: [iss] } }
                      - { id_token: {} }
                      - { when: { endpoint: resource }, id_token: { kid: absent } }
                      - { id_token: { set: { nonce: x }, omit: [nonce] } }
                      - { id_token: { signature: none } }
                    """
            )
        ).map(\.description)
        #expect(
            found == [
                "broken.yaml:7:21: error: 'RS265' is not a valid ID token algorithm; did you mean 'RS256'? (allowed: RS256, PS256, ES256, HS256)",
                "broken.yaml:7:52: error: id_tokens.rotate_keys has at, from_id_token; give only one of them",
                "broken.yaml:9:27: error: 'other-key' is not a valid id_token.sign; did you mean 'other_key'? (allowed: other_key, none, hs256_with_public_key, client_secret)",
                "broken.yaml:10:38: error: id_token.from_now.exp: '1 hour' is not a duration; write e.g. 250ms, 120s, 5m, 1h30m (a leading - means in the past; terms are durations and client.id_token_clock_skew)",
                "broken.yaml:11:26: error: id_token.set must be a mapping of claim names to values",
                "broken.yaml:12:19: error: id_token needs at least one of set, omit, from_now, sign, kid",
                "broken.yaml:13:39: error: id_token alters the ID token of a token response; this rule's endpoint is resource, not token",
                "broken.yaml:14:19: error: claim 'nonce' is in both id_token.set and id_token.omit",
                "broken.yaml:15:21: error: unknown key 'signature' in id_token (allowed: set, omit, from_now, sign, kid)",
            ]
        )
    }
}

/// The JSON Schema knows the OpenID Connect keys exactly as the decoder does.
@Suite("The scenario JSON Schema's OpenID Connect keys")
struct IDTokenSchemaTests {
    @Test("keys and enumerations match the decoder's")
    func keysMatch() throws {
        #expect(try ScenarioSchemaTests.keys("provider", "id_tokens") == Set(IDTokenDecoder.policyKeys))
        #expect(
            try ScenarioSchemaTests.keys("provider", "id_tokens", "rotate_keys") == Set(IDTokenDecoder.rotationKeys)
        )
        #expect(try ScenarioSchemaTests.keys("idToken") == Set(IDTokenAlteration.fieldKeys))
        // Upper case as JOSE writes them, and lower case for matrix values that sit in scenario ids.
        let algorithms = IDTokenAlgorithm.allCases.map(\.rawValue)
        #expect(
            try ScenarioSchemaTests.enumeration("idTokenAlgorithm") == algorithms + algorithms.map { $0.lowercased() }
        )
        #expect(
            try ScenarioSchemaTests.enumeration("jwksPublication") == IDTokenPolicy.Publication.allCases.map(\.rawValue)
        )
        #expect(
            try ScenarioSchemaTests.enumeration("idTokenSigning") == IDTokenAlteration.Signing.allCases.map(\.rawValue)
        )
    }

    @Test("the schema accepts what the decoder accepts, and refuses a misspelt signing")
    func documents() async throws {
        let good = ProviderDecodingTests.scenarioText(
            provider: """
                id_tokens: { alg: PS256, jwks: all_keys, rotate_keys: { from_id_token: 2, retire_old: true } }
                rules:
                  - { when: { endpoint: token }, id_token: { set: { aud: [a, b] }, omit: [azp], from_now: { exp: -1h }, sign: other_key, kid: absent } }
                  - { when: { endpoint: jwks }, respond: { status: 503 } }
                  - { sequence: [{ id_token: { sign: none } }] }
                """
        )
        let bad = good.replacingOccurrences(of: "sign: none", with: "sign: nothing")
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let goodPath = directory.appendingPathComponent("good.yaml").path
        let badPath = directory.appendingPathComponent("bad.yaml").path
        try good.write(toFile: goodPath, atomically: true, encoding: .utf8)
        try bad.write(toFile: badPath, atomically: true, encoding: .utf8)
        let verdicts = try await ScenarioSchemaTests.validate([goodPath, badPath])
        #expect(verdicts[goodPath] == "valid", "\(verdicts[goodPath] ?? "")")
        #expect(!ScenarioLoader.load(paths: [goodPath]).hasErrors)
        #expect(verdicts[badPath]?.hasPrefix("invalid") == true)
        #expect(ScenarioLoader.load(paths: [badPath]).hasErrors)
    }
}
