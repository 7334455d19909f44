import Foundation
import MockProvider
import Testing

/// DPoP (RFC 9449) at the provider, observed on the wire: proofs verified as §4.3 lists, tokens
/// bound (§5, §6), bound tokens refused without their key's proof (§7.1), nonces demanded and
/// rotated (§8, §9).
@Suite("DPoP proofs, bound tokens and nonces, as RFC 9449 describes them")
struct DPoPTests {
    static func settings(_ policy: DPoPPolicy = DPoPPolicy(), tokens: TokenPolicy = .init()) -> ProviderSettings {
        var settings = ProviderSettings(tokens: tokens)
        settings.dpop = policy
        return settings
    }

    static let now = Int(VirtualClock.defaultOrigin.timeIntervalSince1970)

    /// A token request with a DPoP header (none when `proof` is nil).
    func tokenRequest(
        _ provider: RunningProvider,
        proof: String?,
        form: [(String, String)] = [("grant_type", "client_credentials")]
    ) async throws -> RunningProvider.Answer {
        let credentials = Data("conformance-client:conformance-secret".utf8).base64EncodedString()
        var headers = [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", "Basic \(credentials)"),
        ]
        if let proof { headers.append(("DPoP", proof)) }
        let body = form.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return try await provider.send("POST", path: "/token", headers: headers, body: body)
    }

    func resource(
        _ provider: RunningProvider,
        authorization: String,
        proof: String?,
        path: String = "/resource"
    ) async throws -> RunningProvider.Answer {
        var headers = [("Authorization", authorization)]
        if let proof { headers.append(("DPoP", proof)) }
        return try await provider.send("GET", path: path, headers: headers)
    }

    func tokenURL(_ provider: RunningProvider) -> String { provider.server.baseURL + "/token" }

    @Test("a valid proof buys a DPoP-bound token, which the resource takes only with a proof by the same key")
    func boundToken() async throws {
        try await RunningProvider.with(Self.settings()) { provider in
            let key = DPoPProofKey.es256()
            let answer = try await tokenRequest(provider, proof: key.proof(url: tokenURL(provider)))
            #expect(answer.status == 200)
            #expect(answer.json?["token_type"]?.stringValue == "DPoP")
            let token = try #require(answer.json?["access_token"]?.stringValue)
            #expect(provider.provider.issuedTokens.first?.boundKey != nil)
            let resourceURL = provider.server.baseURL + "/resource"
            let proved = try await resource(
                provider,
                authorization: "DPoP \(token)",
                proof: key.proof(method: "GET", url: resourceURL, accessToken: token)
            )
            #expect(proved.status == 200)
            let asBearer = try await resource(provider, authorization: "Bearer \(token)", proof: nil)
            #expect(asBearer.status == 401)
            #expect(asBearer.headers["WWW-Authenticate"].first?.hasPrefix("DPoP ") == true)
            #expect(asBearer.headers["WWW-Authenticate"].first?.contains("error=\"invalid_token\"") == true)
            let otherKey = try await resource(
                provider,
                authorization: "DPoP \(token)",
                proof: DPoPProofKey.es256().proof(method: "GET", url: resourceURL, accessToken: token)
            )
            #expect(otherKey.headers["WWW-Authenticate"].first?.contains("another key") == true)
            let withoutProof = try await resource(provider, authorization: "DPoP \(token)", proof: nil)
            #expect(withoutProof.headers["WWW-Authenticate"].first?.contains("invalid_dpop_proof") == true)
            let introspected = try await provider.send(
                "POST",
                path: "/introspect",
                headers: [
                    ("Content-Type", "application/x-www-form-urlencoded"),
                    (
                        "Authorization",
                        "Basic " + Data("conformance-client:conformance-secret".utf8).base64EncodedString()
                    ),
                ],
                body: "token=\(token)"
            )
            #expect(introspected.json?["token_type"]?.stringValue == "DPoP")
            #expect(
                introspected.json?["cnf"]?["jkt"]
                    == provider.provider.issuedTokens.first?.boundKey.map(JSONValue.string)
            )
            let withoutAth = try await resource(
                provider,
                authorization: "DPoP \(token)",
                proof: key.proof(method: "GET", url: resourceURL)
            )
            #expect(withoutAth.headers["WWW-Authenticate"].first?.contains("ath must be") == true)
        }
    }

    @Test("without a DPoP header the token stays a bearer token, even where DPoP is offered")
    func noProofNoBinding() async throws {
        try await RunningProvider.with(Self.settings()) { provider in
            let answer = try await tokenRequest(provider, proof: nil)
            #expect(answer.json?["token_type"]?.stringValue == "Bearer")
            let token = try #require(answer.json?["access_token"]?.stringValue)
            #expect(try await resource(provider, authorization: "Bearer \(token)", proof: nil).status == 200)
        }
    }

    @Test(
        "each broken proof is refused invalid_dpop_proof, naming the rule it breaks",
        arguments: [
            ("typ", "typ must be dpop+jwt"),
            ("alg none", "alg must be an asymmetric signature algorithm, not none"),
            ("alg HS256", "alg must be an asymmetric signature algorithm, not HS256"),
            ("private jwk", "the jwk header holds the private member 'd'; it must be the public key only"),
            ("signature", "the signature does not verify with the jwk"),
            ("htm", "htm must be POST"),
            ("htu query", "htu must leave out the query and fragment"),
            ("htu path", "htu must be"),
            ("iat old", "iat is too old"),
            ("iat ahead", "iat is in the future"),
        ]
    )
    func brokenProof(broken: String, description: String) async throws {
        try await RunningProvider.with(Self.settings()) { provider in
            let key = DPoPProofKey.es256()
            let url = tokenURL(provider)
            var overrides = DPoPProofKey.Overrides()
            var method = "POST"
            var target = url
            var issuedAt = Self.now
            switch broken {
            case "typ": overrides.typ = "JWT"
            case "alg none": overrides.alg = "none"
            case "alg HS256": overrides.alg = "HS256"
            case "private jwk": overrides.privateJWK = true
            case "signature": overrides.badSignature = true
            case "htm": method = "GET"
            case "htu query": target = url + "?x=1"
            case "htu path": target = provider.server.baseURL + "/other"
            case "iat old": issuedAt = Self.now - 301
            default: issuedAt = Self.now + 61
            }
            let proof = key.proof(method: method, url: target, issuedAt: issuedAt, overrides: overrides)
            let answer = try await tokenRequest(provider, proof: proof)
            #expect(answer.status == 400)
            #expect(answer.json?["error"]?.stringValue == "invalid_dpop_proof")
            #expect(answer.json?["error_description"]?.stringValue?.hasPrefix(description) == true)
            #expect(provider.provider.issuedTokens.isEmpty)
        }
    }

    @Test("a proof's jti is good once; an RSA and an Ed25519 key prove as well as an EC one")
    func replayAndKeyTypes() async throws {
        try await RunningProvider.with(Self.settings()) { provider in
            let proof = DPoPProofKey.es256().proof(url: tokenURL(provider))
            #expect(try await tokenRequest(provider, proof: proof).status == 200)
            let replay = try await tokenRequest(provider, proof: proof)
            #expect(replay.json?["error_description"]?.stringValue == "the proof's jti was used before (a replay)")
            for key in [try DPoPProofKey.rs256(), DPoPProofKey.edDSA()] {
                let answer = try await tokenRequest(provider, proof: key.proof(url: tokenURL(provider)))
                #expect(answer.json?["token_type"]?.stringValue == "DPoP", "\(key.algorithm)")
            }
        }
    }

    @Test("the token endpoint demands its nonce, and hands out the next one in a success when it rotates (§8, §8.2)")
    func tokenEndpointNonce() async throws {
        let policy = DPoPPolicy(nonceRequiredAt: [.token], nonceRotatesEvery: 1)
        try await RunningProvider.with(Self.settings(policy)) { provider in
            let key = DPoPProofKey.es256()
            let first = try await tokenRequest(provider, proof: key.proof(url: tokenURL(provider)))
            #expect(first.status == 400)
            #expect(first.json?["error"]?.stringValue == "use_dpop_nonce")
            #expect(first.headers["DPoP-Nonce"].first == "as-nonce-1")
            let second = try await tokenRequest(
                provider,
                proof: key.proof(url: tokenURL(provider), nonce: "as-nonce-1")
            )
            #expect(second.status == 200)
            #expect(second.headers["DPoP-Nonce"].first == "as-nonce-2")
            let stale = try await tokenRequest(provider, proof: key.proof(url: tokenURL(provider), nonce: "as-nonce-1"))
            #expect(stale.json?["error_description"]?.stringValue == "a DPoP nonce is required: the nonce is stale")
            #expect(stale.headers["DPoP-Nonce"].first == "as-nonce-2")
        }
    }

    @Test("the resource demands its own nonce with a DPoP challenge (§9)")
    func resourceNonce() async throws {
        try await RunningProvider.with(Self.settings(DPoPPolicy(nonceRequiredAt: [.resource]))) { provider in
            let key = DPoPProofKey.es256()
            let token = try #require(
                try await tokenRequest(provider, proof: key.proof(url: tokenURL(provider))).json?["access_token"]?
                    .stringValue
            )
            let url = provider.server.baseURL + "/resource"
            let demanded = try await resource(
                provider,
                authorization: "DPoP \(token)",
                proof: key.proof(method: "GET", url: url, accessToken: token)
            )
            #expect(demanded.status == 401)
            #expect(demanded.headers["WWW-Authenticate"].first?.contains("error=\"use_dpop_nonce\"") == true)
            #expect(demanded.headers["DPoP-Nonce"].first == "rs-nonce-1")
            let met = try await resource(
                provider,
                authorization: "DPoP \(token)",
                proof: key.proof(method: "GET", url: url, accessToken: token, nonce: "rs-nonce-1")
            )
            #expect(met.status == 200)
        }
    }

    @Test("a bound refresh token is refreshed only with a proof by its key (§5)")
    func boundRefreshToken() async throws {
        try await RunningProvider.with(Self.settings(DPoPPolicy(refreshTokensBound: true))) { provider in
            let key = DPoPProofKey.es256()
            let form = [("grant_type", "password"), ("username", "alice"), ("password", "wonderland")]
            let granted = try await tokenRequest(provider, proof: key.proof(url: tokenURL(provider)), form: form)
            let refreshToken = try #require(granted.json?["refresh_token"]?.stringValue)
            let refresh = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
            for (proof, status) in [
                (nil, 400), (DPoPProofKey.es256().proof(url: tokenURL(provider)), 400),
                (key.proof(url: tokenURL(provider)), 200),
            ] {
                let answer = try await tokenRequest(provider, proof: proof, form: refresh)
                #expect(answer.status == status)
                if status == 400 { #expect(answer.json?["error"]?.stringValue == "invalid_grant") }
            }
        }
    }

    @Test("answers_bearer answers a proof with a bearer token, which the resource takes as one")
    func downgrade() async throws {
        try await RunningProvider.with(Self.settings(DPoPPolicy(answersBearer: true))) { provider in
            let answer = try await tokenRequest(provider, proof: DPoPProofKey.es256().proof(url: tokenURL(provider)))
            #expect(answer.json?["token_type"]?.stringValue == "Bearer")
            let token = try #require(answer.json?["access_token"]?.stringValue)
            #expect(try await resource(provider, authorization: "Bearer \(token)", proof: nil).status == 200)
        }
    }

    @Test("a rule's dpop_nonce renews the nonce at every call it takes, and the metadata names the algorithms")
    func renewedByRule() async throws {
        var settings = Self.settings(DPoPPolicy(nonceRequiredAt: [.token]))
        settings.rules = [ProviderRule(match: RequestMatcher(endpoint: .token), action: .renewDPoPNonce)]
        try await RunningProvider.with(settings) { provider in
            let key = DPoPProofKey.es256()
            var nonces: [String] = []
            for _ in 0..<3 {
                let answer = try await tokenRequest(
                    provider,
                    proof: key.proof(url: tokenURL(provider), nonce: nonces.last)
                )
                #expect(answer.json?["error"]?.stringValue == "use_dpop_nonce")
                nonces += answer.headers["DPoP-Nonce"]
            }
            #expect(nonces == ["as-nonce-1", "as-nonce-2", "as-nonce-3"])
            let metadata = try await provider.send("GET", path: "/.well-known/oauth-authorization-server")
            #expect(
                metadata.json?["dpop_signing_alg_values_supported"]
                    == .array(DPoPPolicy.signingAlgorithms.map(JSONValue.string))
            )
        }
    }
}
