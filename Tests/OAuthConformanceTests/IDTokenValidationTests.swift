import CryptoExtras
import Foundation
import JWTKit
import MockProvider
import Synchronization
import Testing

@testable import OAuthConformance

/// JWTKit's, not swift-crypto's `Insecure`.
private typealias RSAPrivateKey = JWTKit.Insecure.RSA.PrivateKey

/// Keys generated once per test run, and the provider's JWKS built from their public halves.
private enum TestKeys {
    static let rsa = makeRSA()
    /// Another RSA key, used to forge tokens that carry `rsa`'s kid (OIDF issue 1375).
    static let impostor = makeRSA()
    static let rotated = makeRSA()
    static let ec = ES256PrivateKey()

    static func makeRSA() -> RSAPrivateKey {
        try! RSAPrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    static func jwk(_ key: RSAPrivateKey, kid: String?, extra: [String: JSONValue] = [:]) -> JSONValue {
        let (modulus, exponent) = try! key.publicKey.getKeyPrimitives()
        var members: [String: JSONValue] = [
            "kty": .string("RSA"), "n": .string(AuthorizationRequest.base64URL(modulus)),
            "e": .string(AuthorizationRequest.base64URL(exponent)),
        ]
        members["kid"] = kid.map(JSONValue.string)
        return .object(members.merging(extra) { _, new in new })
    }

    static func jwk(_ key: ES256PrivateKey, kid: String) -> JSONValue {
        let point = key.publicKey.parameters!
        return .object([
            "kty": .string("EC"), "crv": .string("P-256"), "x": .string(point.x), "y": .string(point.y),
            "kid": .string(kid),
        ])
    }

    static func jwks(_ keys: JSONValue...) -> String {
        JSONValue.object(["keys": .array(keys)]).serialized()
    }

    static let providerJWKS = jwks(jwk(rsa, kid: "rsa-1"), jwk(ec, kid: "ec-1"))
}

/// How a test token is signed: through JWTKit, with the key and the header the case needs.
enum IDTokenSigning: Sendable {
    case rs256(kid: String? = "rsa-1", key: JWTKit.Insecure.RSA.PrivateKey = TestKeys.rsa)
    case ps256
    case es256
    /// HS256 keyed with these bytes: the client secret, or, for algorithm confusion, a public key's PEM.
    case hs256(key: String, kid: String? = nil)
    case none

    func sign(_ claims: [String: JSONValue]) async throws -> String {
        let keys = JWTKeyCollection()
        var header = JWTHeader()
        switch self {
        case .rs256(let kid, let key):
            await keys.add(rsa: key, digestAlgorithm: .sha256)
            header.kid = kid
        case .ps256:
            await keys.add(pss: TestKeys.rsa, digestAlgorithm: .sha256)
            header.kid = "rsa-1"
        case .es256:
            await keys.add(ecdsa: TestKeys.ec)
            header.kid = "ec-1"
        case .hs256(let key, let kid):
            await keys.add(hmac: HMACKey(from: Data(key.utf8)), digestAlgorithm: .sha256)
            header.kid = kid
        case .none:
            await keys.addUnsecuredNone()
        }
        return try await keys.sign(IDTokenClaimSet(members: claims), header: header)
    }
}

/// A clock the test moves, read by the client through the closure it is given.
private final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The JWKS endpoint as the cache sees it: a body that can change (key rotation) or fail.
private final class FakeJWKSEndpoint: Sendable {
    struct Unavailable: Error {}
    private let body: Mutex<String?>

    init(_ body: String?) { self.body = Mutex(body) }

    func serve(_ newBody: String?) { body.withLock { $0 = newBody } }

    func fetch() throws -> String {
        guard let body = body.withLock({ $0 }) else { throw Unavailable() }
        return body
    }
}

private struct Fixture {
    static let issuer = "https://op.example"
    static let clientID = "client-1"
    static let secret = "a client secret long enough for HS256"
    static let nonce = "n-0S6_WzA2Mj"
    static let accessToken = "at-1"
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func registration(_ algorithm: IDTokenSigningAlgorithm = .rs256) -> IDTokenValidator.Registration {
        .init(issuer: issuer, clientID: clientID, clientSecret: secret, signingAlgorithm: algorithm)
    }

    /// A token every rule accepts; `change` breaks the one rule a case is about.
    static func claims(_ change: (inout [String: JSONValue]) -> Void = { _ in }) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string("alice"), "aud": .string(clientID),
            "exp": .integer(Int(now.timeIntervalSince1970) + 300), "iat": .integer(Int(now.timeIntervalSince1970)),
            "nonce": .string(nonce), "at_hash": .string(IDTokenSigningAlgorithm.rs256.accessTokenHash(of: accessToken)),
            "email": .string("alice@example.com"),
        ]
        change(&claims)
        return claims
    }

    static func time(_ offset: Int) -> JSONValue { .integer(Int(now.timeIntervalSince1970) + offset) }

    static func validator(
        _ behaviour: OpenIDConnectBehaviour = .conforming,
        registration: IDTokenValidator.Registration = Fixture.registration(),
        endpoint: FakeJWKSEndpoint = FakeJWKSEndpoint(TestKeys.providerJWKS),
        clock: TestClock = TestClock(now)
    ) -> (IDTokenValidator, JWKSCache) {
        let keys = JWKSCache(policy: behaviour.keySetPolicy, now: { clock.now }, fetch: { try endpoint.fetch() })
        let validator = IDTokenValidator(
            registration: registration,
            behaviour: behaviour,
            keys: keys,
            now: { clock.now }
        )
        return (validator, keys)
    }

    static func validate(
        _ token: String,
        _ behaviour: OpenIDConnectBehaviour = .conforming,
        registration: IDTokenValidator.Registration = registration()
    ) async -> Result<ValidatedIDToken, OpenIDConnectRefusal> {
        await validator(behaviour, registration: registration).0
            .validate(token, accessToken: accessToken, context: .authentication(nonce: nonce))
    }
}

/// A token that breaks exactly one rule, and the refusal that rule gives.
struct BrokenIDToken: Sendable, CustomTestStringConvertible {
    let name: String
    let refusal: OpenIDConnectRefusal
    let make: @Sendable () async throws -> String

    var testDescription: String { name }

    init(_ name: String, _ refusal: OpenIDConnectRefusal, make: @escaping @Sendable () async throws -> String) {
        self.name = name
        self.refusal = refusal
        self.make = make
    }

    /// A correctly signed token whose claims `change` breaks.
    static func claims(
        _ name: String,
        _ refusal: OpenIDConnectRefusal,
        _ change: @escaping @Sendable (inout [String: JSONValue]) -> Void
    ) -> BrokenIDToken {
        BrokenIDToken(name, refusal) { try await IDTokenSigning.rs256().sign(Fixture.claims(change)) }
    }

    static let all: [BrokenIDToken] = [
        BrokenIDToken("forged-signature", .signatureInvalid(keyID: "rsa-1")) {
            try await IDTokenSigning.rs256(key: TestKeys.impostor).sign(Fixture.claims())
        },
        BrokenIDToken("alg-none", .unsigned) { try await IDTokenSigning.none.sign(Fixture.claims()) },
        BrokenIDToken("hs256-keyed-with-rsa-public-key", .algorithmNotRegistered(found: "HS256", registered: "RS256")) {
            // As a PEM file holds it, with its final line break.
            let publicKeyPEM = TestKeys.rsa.publicKey.pemRepresentation.trimmingCharacters(in: .newlines) + "\n"
            return try await IDTokenSigning.hs256(key: publicKeyPEM, kid: "rsa-1").sign(Fixture.claims())
        },
        BrokenIDToken("es256-for-an-rs256-client", .algorithmNotRegistered(found: "ES256", registered: "RS256")) {
            try await IDTokenSigning.es256.sign(Fixture.claims())
        },
        BrokenIDToken("unknown-kid", .unknownKeyID("ghost", fetchedForThisToken: true)) {
            try await IDTokenSigning.rs256(kid: "ghost").sign(Fixture.claims())
        },
        BrokenIDToken("encrypted", .encrypted) { "eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d" },
        .claims("iss-other", .issuerMismatch(found: "https://evil.example", expected: Fixture.issuer)) {
            $0["iss"] = .string("https://evil.example")
        },
        .claims("iss-missing", .issuerMismatch(found: nil, expected: Fixture.issuer)) { $0["iss"] = nil },
        .claims("aud-other-client", .audienceLacksClient(found: ["client-2"], clientID: Fixture.clientID)) {
            $0["aud"] = .string("client-2")
        },
        .claims("azp-other-client", .authorizedPartyMismatch(found: "client-2", clientID: Fixture.clientID)) {
            $0["aud"] = .array([.string(Fixture.clientID), .string("client-2")])
            $0["azp"] = .string("client-2")
        },
        .claims(
            "several-audiences-no-azp",
            .authorizedPartyMissing(audiences: [Fixture.clientID, "client-2"])
        ) { $0["aud"] = .array([.string(Fixture.clientID), .string("client-2")]) },
        .claims(
            "expired",
            .expired(expiresAt: Fixture.now.addingTimeInterval(-61), now: Fixture.now, allowedSkew: .seconds(60))
        ) { $0["exp"] = Fixture.time(-61) },
        .claims("exp-missing", .expiryMissing) { $0["exp"] = nil },
        .claims("iat-missing", .issuedAtMissing) { $0["iat"] = nil },
        .claims(
            "iat-in-future",
            .issuedInFuture(issuedAt: Fixture.now.addingTimeInterval(61), now: Fixture.now, allowedSkew: .seconds(60))
        ) { $0["iat"] = Fixture.time(61) },
        .claims("sub-missing", .subjectMissing) { $0["sub"] = nil },
        .claims("nonce-other", .nonceMismatch) { $0["nonce"] = .string("a-nonce-from-another-sign-in") },
        .claims("nonce-missing", .nonceMissing) { $0["nonce"] = nil },
        .claims("at-hash-other", .accessTokenHashMismatch) {
            $0["at_hash"] = .string(IDTokenSigningAlgorithm.rs256.accessTokenHash(of: "another access token"))
        },
    ]

    /// The tokens each defect must let through; every other token it must still refuse.
    static let acceptedByDefect: [String: Set<String>] = [
        "id-token-signature-unchecked": ["forged-signature"],
        "id-token-alg-none": ["alg-none"],
        "id-token-algorithm-confusion": ["hs256-keyed-with-rsa-public-key", "es256-for-an-rs256-client"],
        "id-token-ignores-nonce": ["nonce-other", "nonce-missing"],
        "id-token-ignores-aud": ["aud-other-client"],
        "id-token-ignores-azp": ["azp-other-client", "several-audiences-no-azp"],
        "id-token-ignores-exp": ["expired", "exp-missing"],
        "id-token-ignores-iat": ["iat-missing", "iat-in-future"],
        "id-token-ignores-at-hash": ["at-hash-other"],
        "jwks-never-refetched": [],
        "jwks-fetched-every-token": [],
        "refresh-accepts-changed-sub": [],
        "userinfo-sub-unchecked": [],
        "predictable-nonce": [],
        // Narrower than declared refuses more, never accepts more.
        "clock-skew-narrower-than-declared": [],
        "jwks-refetch-interval-ignored": [],
    ]
}

/// The OpenID Connect entries of `DefectiveClient.catalogue`: those that change the relying-party
/// behaviour, each with the behaviour it changes.
enum OpenIDConnectDefects {
    struct Entry {
        let name: String
        let behaviour: OpenIDConnectBehaviour
    }

    static let all: [Entry] = DefectiveClient.catalogue.filter { $0.behaviour.openIDConnect != .conforming }.map {
        Entry(name: $0.name, behaviour: $0.behaviour.openIDConnect)
    }
}

@Suite("The reference client validates ID tokens as OpenID Connect Core §3.1.3.7 says")
struct IDTokenValidationTests {
    @Test(
        "a correct token is accepted with each registered algorithm",
        arguments: [
            (IDTokenSigningAlgorithm.rs256, IDTokenSigning.rs256()), (.ps256, .ps256), (.es256, .es256),
            (.hs256, .hs256(key: Fixture.secret)),
        ] as [(IDTokenSigningAlgorithm, IDTokenSigning)]
    )
    func acceptsCorrectToken(_ algorithm: IDTokenSigningAlgorithm, _ signing: IDTokenSigning) async throws {
        let token = try await signing.sign(Fixture.claims())
        let identity = try await Fixture.validate(token, registration: Fixture.registration(algorithm)).get()
        #expect(identity.subject == "alice")
        #expect(identity.issuer == Fixture.issuer)
        #expect(identity.audiences == [Fixture.clientID])
        #expect(identity.expiresAt == Fixture.now.addingTimeInterval(300))
        #expect(identity.claims["email"] == .string("alice@example.com"))
    }

    @Test("a token that breaks one rule is refused, naming that rule", arguments: BrokenIDToken.all)
    func refusesBrokenIDToken(_ broken: BrokenIDToken) async throws {
        let result = await Fixture.validate(try await broken.make())
        #expect(result == .failure(broken.refusal))
        #expect(broken.refusal.clientFailure.category == .idToken)
    }

    @Test("each defect lets through exactly the tokens that break its own rule", arguments: BrokenIDToken.all)
    func defectsSwitchOffOneRuleEach(_ broken: BrokenIDToken) async throws {
        let token = try await broken.make()
        for defect in OpenIDConnectDefects.all {
            let accepted = try #require(BrokenIDToken.acceptedByDefect[defect.name]).contains(broken.name)
            let result = await Fixture.validate(token, defect.behaviour)
            let wasAccepted = (try? result.get()) != nil
            #expect(wasAccepted == accepted, "\(defect.name) on \(broken.name): \(result)")
        }
    }

    @Test("every defect in the catalogue declares the tokens it lets through, and changes one knob")
    func catalogueIsComplete() {
        let names = OpenIDConnectDefects.all.map(\.name)
        #expect(Set(names) == Set(BrokenIDToken.acceptedByDefect.keys))
        #expect(Set(names).count == names.count)
        let conforming = Mirror(reflecting: OpenIDConnectBehaviour.conforming).children.map { "\($0.value)" }
        for defect in OpenIDConnectDefects.all {
            let changed = zip(conforming, Mirror(reflecting: defect.behaviour).children.map { "\($0.value)" })
                .filter { $0 != $1 }
            #expect(changed.count == 1, "\(defect.name) changes \(changed.count) knobs")
        }
    }

    @Test("exp and iat within the allowed clock skew are accepted")
    func withinSkew() async throws {
        let token = try await IDTokenSigning.rs256().sign(
            Fixture.claims {
                $0["exp"] = Fixture.time(-59)
                $0["iat"] = Fixture.time(59)
            }
        )
        #expect((try? await Fixture.validate(token).get()) != nil)
    }

    @Test("aud as an array holding the client, with azp naming it, is accepted; at_hash may be absent")
    func audienceArrayAndNoAccessTokenHash() async throws {
        let token = try await IDTokenSigning.rs256().sign(
            Fixture.claims {
                $0["aud"] = .array([.string(Fixture.clientID), .string("client-2")])
                $0["azp"] = .string(Fixture.clientID)
                $0["at_hash"] = nil
            }
        )
        let identity = try await Fixture.validate(token).get()
        #expect(identity.audiences == [Fixture.clientID, "client-2"])
        #expect(identity.authorizedParty == Fixture.clientID)
    }

    @Test("registered for HS256: another secret, RS256, or a secret too short or absent to key it, is refused")
    func hs256Registration() async throws {
        let registration = Fixture.registration(.hs256)
        let wrongSecret = try await IDTokenSigning.hs256(key: "another client secret, also long enough").sign(
            Fixture.claims()
        )
        #expect(
            await Fixture.validate(wrongSecret, registration: registration) == .failure(.signatureInvalid(keyID: nil))
        )
        let rs256 = try await IDTokenSigning.rs256().sign(Fixture.claims())
        #expect(
            await Fixture.validate(rs256, registration: registration)
                == .failure(.algorithmNotRegistered(found: "RS256", registered: "HS256"))
        )
        var noSecret = registration
        noSecret.clientSecret = nil
        let signed = try await IDTokenSigning.hs256(key: Fixture.secret).sign(Fixture.claims())
        #expect(await Fixture.validate(signed, registration: noSecret) == .failure(.noClientSecret))
        var shortSecret = registration
        shortSecret.clientSecret = "short"
        #expect(await Fixture.validate(signed, registration: shortSecret) == .failure(.clientSecretTooShort(bytes: 5)))
    }

    @Test("a header with a crit extension is refused; so is a token that is not a JWS")
    func malformedAndCritical() async throws {
        let keys = JWTKeyCollection()
        await keys.add(rsa: TestKeys.rsa, digestAlgorithm: .sha256)
        var header = JWTHeader()
        header.kid = "rsa-1"
        header.crit = ["exp"]
        let critical = try await keys.sign(IDTokenClaimSet(members: Fixture.claims()), header: header)
        #expect(await Fixture.validate(critical) == .failure(.criticalHeaderNotUnderstood(["exp"])))
        guard case .failure(.malformed) = await Fixture.validate("not-a-token") else {
            Issue.record("a token without three parts was not refused as malformed")
            return
        }
    }
}

@Suite("A refreshed ID token continues the original sign-in (OpenID Connect Core §12.2)")
struct RefreshedIDTokenTests {
    private func original() async throws -> ValidatedIDToken {
        try await Fixture.validate(try await IDTokenSigning.rs256().sign(Fixture.claims())).get()
    }

    private func refreshed(
        _ behaviour: OpenIDConnectBehaviour = .conforming,
        subject: String = "alice"
    ) async throws
        -> Result<ValidatedIDToken, OpenIDConnectRefusal>
    {
        let token = try await IDTokenSigning.rs256().sign(
            Fixture.claims {
                $0["nonce"] = nil
                $0["sub"] = .string(subject)
                $0["iat"] = Fixture.time(10)
            }
        )
        return await Fixture.validator(behaviour).0
            .validateRefresh(token, accessToken: Fixture.accessToken, original: try await original())
    }

    @Test("the same iss, sub and aud without a nonce is accepted")
    func sameUser() async throws {
        let identity = try await refreshed().get()
        #expect(identity.subject == "alice")
        #expect(identity.issuedAt == Fixture.now.addingTimeInterval(10))
    }

    @Test("no ID token in the refresh response keeps the original identity")
    func absent() async throws {
        let original = try await original()
        let kept = await Fixture.validator().0.validateRefresh(nil, accessToken: "at-2", original: original)
        #expect(kept == .success(original))
    }

    @Test("another sub is refused; only the changed-sub defect accepts it")
    func changedSubject() async throws {
        #expect(
            try await refreshed(subject: "mallory")
                == .failure(.subjectChangedOnRefresh(original: "alice", found: "mallory"))
        )
        for defect in OpenIDConnectDefects.all {
            let accepted = (try? await refreshed(defect.behaviour, subject: "mallory").get()) != nil
            #expect(accepted == (defect.name == "refresh-accepts-changed-sub"), "\(defect.name)")
        }
    }
}

@Suite("The JWKS cache fetches the provider's keys once, again for a new kid, and no more")
struct JWKSCacheTests {
    private func signIn(
        _ validator: IDTokenValidator,
        _ signing: IDTokenSigning = .rs256()
    ) async throws
        -> Result<ValidatedIDToken, OpenIDConnectRefusal>
    {
        await validator.validate(
            try await signing.sign(Fixture.claims()),
            accessToken: Fixture.accessToken,
            context: .authentication(nonce: Fixture.nonce)
        )
    }

    @Test("many sign-ins with an unchanged key fetch the JWKS once; the every-token defect fetches each time")
    func cachesKeys() async throws {
        for (behaviour, fetches) in [(OpenIDConnectBehaviour.conforming, 1), (defect("jwks-fetched-every-token"), 5)] {
            let (validator, keys) = Fixture.validator(behaviour)
            for _ in 1...5 { _ = try await signIn(validator).get() }
            #expect(await keys.fetchCount == fetches)
        }
    }

    @Test("concurrent first sign-ins share one fetch")
    func concurrentFetch() async throws {
        let endpoint = FakeJWKSEndpoint(TestKeys.providerJWKS)
        let clock = TestClock(Fixture.now)
        let slowFetch: JWKSCache.Fetch = {
            try await Task.sleep(for: .milliseconds(50))
            return try endpoint.fetch()
        }
        let keys = JWKSCache(now: { clock.now }, fetch: slowFetch)
        let validator = IDTokenValidator(registration: Fixture.registration(), keys: keys, now: { clock.now })
        let token = try await IDTokenSigning.rs256().sign(Fixture.claims())
        let accepted = await withTaskGroup(of: Bool.self) { group in
            for _ in 1...5 {
                group.addTask {
                    await
                        (try? validator.validate(
                            token,
                            accessToken: Fixture.accessToken,
                            context: .authentication(nonce: Fixture.nonce)
                        ).get()) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == 5)
        #expect(await keys.fetchCount == 1)
    }

    @Test("a rotated key is fetched once and accepted; the never-refetch defect refuses it")
    func keyRotation() async throws {
        for (behaviour, expected) in [
            (OpenIDConnectBehaviour.conforming, Result<String, OpenIDConnectRefusal>.success("alice")),
            (defect("jwks-never-refetched"), .failure(.unknownKeyID("rsa-2", fetchedForThisToken: false))),
        ] {
            let endpoint = FakeJWKSEndpoint(TestKeys.providerJWKS)
            let (validator, keys) = Fixture.validator(behaviour, endpoint: endpoint)
            _ = try await signIn(validator).get()
            endpoint.serve(TestKeys.jwks(TestKeys.jwk(TestKeys.rotated, kid: "rsa-2")))
            let result = try await signIn(validator, .rs256(kid: "rsa-2", key: TestKeys.rotated)).map(\.subject)
            #expect(result == expected)
            #expect(await keys.fetchCount == (behaviour.refetchesKeysForUnknownKeyID ? 2 : 1))
        }
    }

    @Test("tokens naming a key that does not exist cause at most one refetch per interval")
    func unknownKeysAreRateLimited() async throws {
        let clock = TestClock(Fixture.now)
        let (validator, keys) = Fixture.validator(clock: clock)
        _ = try await signIn(validator).get()
        let ghost = IDTokenSigning.rs256(kid: "ghost")
        #expect(try await signIn(validator, ghost) == .failure(.unknownKeyID("ghost", fetchedForThisToken: true)))
        for _ in 1...3 {
            #expect(try await signIn(validator, ghost) == .failure(.unknownKeyID("ghost", fetchedForThisToken: false)))
        }
        #expect(await keys.fetchCount == 2)
        clock.advance(by: 30)
        #expect(try await signIn(validator, ghost) == .failure(.unknownKeyID("ghost", fetchedForThisToken: true)))
        #expect(await keys.fetchCount == 3)
    }

    @Test("an unreachable JWKS refuses the token cleanly, and the next token tries again")
    func unavailableKeys() async throws {
        let endpoint = FakeJWKSEndpoint(nil)
        let (validator, keys) = Fixture.validator(endpoint: endpoint)
        guard case .failure(.keySetUnavailable) = try await signIn(validator) else {
            Issue.record("a token was not refused while the JWKS was unreachable")
            return
        }
        endpoint.serve("<html>502</html>")
        guard case .failure(.keySetUnavailable) = try await signIn(validator) else {
            Issue.record("a token was not refused while the JWKS was garbage")
            return
        }
        endpoint.serve(TestKeys.providerJWKS)
        _ = try await signIn(validator).get()
        #expect(await keys.fetchCount == 3)
    }

    @Test("without a kid, the single key of the algorithm's type is used; with several, the token is refused")
    func keyWithoutKeyID() async throws {
        let single = FakeJWKSEndpoint(
            TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "rsa-1"), TestKeys.jwk(TestKeys.ec, kid: "ec-1"))
        )
        _ = try await signIn(Fixture.validator(endpoint: single).0, .rs256(kid: nil)).get()
        let several = FakeJWKSEndpoint(
            TestKeys.jwks(TestKeys.jwk(TestKeys.rsa, kid: "rsa-1"), TestKeys.jwk(TestKeys.rotated, kid: "rsa-2"))
        )
        #expect(
            try await signIn(Fixture.validator(endpoint: several).0, .rs256(kid: nil))
                == .failure(.severalKeysAndNoKeyID(algorithm: "RS256", candidates: 2))
        )
    }

    @Test("keys the client cannot use (unknown kty, use: enc) are skipped, not the whole set")
    func skipsUnusableKeys() async throws {
        let endpoint = FakeJWKSEndpoint(
            TestKeys.jwks(
                .object(["kty": .string("XYZ"), "kid": .string("odd")]),
                TestKeys.jwk(TestKeys.impostor, kid: "rsa-1", extra: ["use": .string("enc")]),
                TestKeys.jwk(TestKeys.rsa, kid: "rsa-1", extra: ["use": .string("sig"), "alg": .string("RS256")])
            )
        )
        let (validator, keys) = Fixture.validator(endpoint: endpoint)
        _ = try await signIn(validator).get()
        #expect(await keys.keyIDs == ["rsa-1"])
    }

    @Test("a kid that names a key of another type is refused without guessing")
    func keyOfWrongType() async throws {
        #expect(
            try await signIn(Fixture.validator().0, .rs256(kid: "ec-1"))
                == .failure(.keyNotUsable(keyID: "ec-1", algorithm: "RS256"))
        )
    }

    private func defect(_ name: String) -> OpenIDConnectBehaviour {
        OpenIDConnectDefects.all.first { $0.name == name }!.behaviour
    }
}

@Suite("Nonces, discovery and userinfo (OpenID Connect Core §3.1.2.1, §5.3.2, Discovery §4.3)")
struct OpenIDConnectChecksTests {
    @Test("each nonce is fresh, 256 bits, base64url")
    func nonces() throws {
        let source = NonceSource()
        let nonces = (1...1000).map { _ in source.next() }
        #expect(Set(nonces).count == nonces.count)
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for nonce in nonces {
            #expect(nonce.count == 43)
            #expect(nonce.allSatisfy(alphabet.contains))
        }
    }

    @Test("a discovery document for its own issuer is read")
    func discoveryAccepted() throws {
        let body = #"""
            {"issuer":"https://op.example","jwks_uri":"https://op.example/jwks","token_endpoint":"https://op.example/token",
             "id_token_signing_alg_values_supported":["RS256","ES256"]}
            """#
        let metadata = try OpenIDProviderMetadata.read(body, fetchedFor: "https://op.example").get()
        #expect(metadata.jwksURI == "https://op.example/jwks")
        #expect(metadata.tokenEndpoint == "https://op.example/token")
        #expect(metadata.idTokenSigningAlgorithms == ["RS256", "ES256"])
    }

    @Test(
        "a discovery document naming another issuer, or none, is refused",
        arguments: [
            (#"{"issuer":"https://op.example/"}"#, "https://op.example/" as String?),
            (#"{"issuer":"https://evil.example"}"#, "https://evil.example"),
            (#"{"jwks_uri":"https://op.example/jwks"}"#, nil),
        ]
    )
    func discoveryRefused(_ body: String, _ found: String?) {
        #expect(
            OpenIDProviderMetadata.read(body, fetchedFor: "https://op.example")
                == .failure(.discoveryIssuerMismatch(found: found, fetchedFor: "https://op.example"))
        )
    }

    @Test("userinfo about the signed-in user is used; about another sub it is discarded, unless the defect")
    func userinfo() async throws {
        let identity = try await Fixture.validate(try await IDTokenSigning.rs256().sign(Fixture.claims())).get()
        let own = try UserinfoCheck().claims(from: #"{"sub":"alice","name":"Alice"}"#, for: identity).get()
        #expect(own["name"] == .string("Alice"))
        let other = #"{"sub":"mallory","name":"Mallory"}"#
        #expect(
            UserinfoCheck().claims(from: other, for: identity)
                == .failure(.userinfoSubjectMismatch(found: "mallory", idTokenSubject: "alice"))
        )
        #expect(
            UserinfoCheck().claims(from: #"{"name":"Nobody"}"#, for: identity)
                == .failure(.userinfoSubjectMismatch(found: nil, idTokenSubject: "alice"))
        )
        for defect in OpenIDConnectDefects.all {
            let used = (try? UserinfoCheck(behaviour: defect.behaviour).claims(from: other, for: identity).get()) != nil
            #expect(used == (defect.name == "userinfo-sub-unchecked"), "\(defect.name)")
        }
    }

    @Test("refusals name the rule and quote no nonce or token")
    func refusalMessages() {
        let message = OpenIDConnectRefusal.nonceMismatch.clientFailure.message
        #expect(message.contains("§3.1.3.7 step 11"))
        #expect(!message.contains(Fixture.nonce))
        #expect(
            OpenIDConnectRefusal.unknownKeyID("k", fetchedForThisToken: true).description.contains(
                "even as fetched for this token"
            )
        )
    }
}
