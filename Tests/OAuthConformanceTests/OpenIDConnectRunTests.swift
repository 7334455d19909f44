import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The OpenID Connect scenarios end to end over real HTTP: the reference client passes each, and
/// each defect fails the scenario written for it with the check that names its bug, not by accident.
@Suite("OpenID Connect scenarios judge what the client did")
struct OpenIDConnectRunTests {
    /// These tests judge verdicts, not speed: a step gets a minute, so that a sign-in slowed by
    /// the whole test run beside it (RSA signatures on two cores) is not cut off at 20 s.
    private func run(_ id: String, _ factory: some ClientFactory) async throws -> ScenarioResult {
        await ScenarioRunner(stepTimeout: .seconds(60)).run(try Fixtures.builtInScenario(id), with: factory)
    }

    private func failedStatements(_ result: ScenarioResult) -> [String] {
        result.checks.filter { !$0.passed }.map(\.statement)
    }

    @Test("the reference client passes every oidc scenario and reports the categories the steps expect")
    func referencePasses() async throws {
        let scenarios = try Fixtures.builtInScenarios().filter { $0.area == .oidc }
        #expect(scenarios.count >= 30)
        for scenario in scenarios {
            let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
            #expect(result.verdict == .passed, "\(scenario.id): \(result.checks.filter { !$0.passed })")
        }
    }

    @Test(
        "a client that checks everything but the signature is caught by the signature scenario, and uses the forged sign-in's tokens",
        arguments: ["rs256", "es256", "ps256", "hs256"]
    )
    func signatureSkipperIsCaught(_ alg: String) async throws {
        let result = try await run(
            "oidc/id-token-signed-by-another-key-refused/\(alg)",
            try Fixtures.defect("id-token-signature-unchecked").factory
        )
        #expect(result.verdict == .failed)
        let failed = failedStatements(result)
        #expect(failed.contains("step 1 (sign_in) outcome"))
        #expect(failed.contains("no requests (presenting access_token#1)"))
        // Every other rule holds for that token: no claim scenario catches this client.
        let claims = try await run(
            "oidc/id-token-issuer-mismatch-refused",
            try Fixtures.defect("id-token-signature-unchecked").factory
        )
        #expect(claims.verdict == .passed)
    }

    @Test("a refreshed ID token for another user fails same_user and the use of its access token")
    func changedSubjectOnRefresh() async throws {
        let result = try await run(
            "oidc/refresh-id-token-for-another-user-refused",
            try Fixtures.defect("refresh-accepts-changed-sub").factory
        )
        let failed = result.checks.filter { !$0.passed }
        #expect(failed.map(\.kind).sorted() == ["identity", "never"])
        let identity = try #require(failed.first { $0.kind == "identity" })
        #expect(identity.observed.contains("sub someone-else"))
        let timeline = TimelineText.lines(for: try #require(result.transcript)).joined(separator: "\n")
        #expect(timeline.contains("signed in: sub someone-else"))
        #expect(timeline.contains("id_token=id_token#2"))
    }

    @Test("a fixed nonce fails distinct and the nonce length, saying which requests repeat it")
    func predictableNonce() async throws {
        let result = try await run("oidc/nonce-fresh-and-unguessable", try Fixtures.defect("predictable-nonce").factory)
        let distinct = try #require(result.checks.first { $0.kind == "freshness" })
        #expect(!distinct.passed)
        #expect(distinct.observed.contains("repeats the nonce"))
        #expect(result.checks.filter { $0.kind == "parameters" }.allSatisfy { !$0.passed })
    }

    @Test("a userinfo answer about another user is refused as category userinfo; the defect uses it")
    func userinfoSubject() async throws {
        let conforming = try await run("oidc/userinfo-subject-mismatch-refused", ReferenceClientFactory())
        let outcome = try #require(conforming.step(2)?.result.clientOutcomes.first, "\(conforming.verdict)")
        guard case .failure(let failure) = outcome else {
            Issue.record("userinfo succeeded: \(outcome)")
            return
        }
        #expect(failure.category == .userinfo)
        #expect(failure.message.contains("someone-else"))
        let defective = try await run(
            "oidc/userinfo-subject-mismatch-refused",
            try Fixtures.defect("userinfo-sub-unchecked").factory
        )
        #expect(failedStatements(defective) == ["step 2 (userinfo) outcome"])
    }

    @Test("a refused ID token's reason reaches the report, naming the rule")
    func refusalReason() async throws {
        let result = try await run("oidc/id-token-audience-mismatch-refused", ReferenceClientFactory())
        guard case .failure(let failure)? = result.step(1)?.result.clientOutcomes.first else {
            Issue.record("the sign-in was not refused: \(result.verdict)")
            return
        }
        #expect(failure.category == .idToken)
        #expect(failure.message.contains("another-client"))
        #expect(failure.message.contains("§3.1.3.7 step 3"))
    }

    @Test("a client relying on TLS skips the signature scenarios as a declared gap and is judged on the rest")
    func tlsOnlyIsADeclaredGap() async throws {
        var capabilities = ReferenceClientFactory().profile.capabilities
        capabilities.remove(.idTokenSignature)
        let factory = ReducedProfileFactory(capabilities: capabilities)
        let signature = try await run("oidc/id-token-unsigned-refused", factory)
        guard case .skipped(let reason) = signature.verdict else {
            Issue.record("not skipped: \(signature.verdict)")
            return
        }
        #expect(reason.contains("declared gap"))
        #expect(reason.contains("tls_only"))
        #expect(try await run("oidc/id-token-expired-refused", factory).verdict == .passed)
    }

    @Test("succeeds_or_refuses takes a success or a refusal, and fails a crash, naming it")
    func successOrRefusal() async throws {
        let scenario = "oidc/kid-absent-several-keys-handled"
        #expect(try await run(scenario, ReferenceClientFactory()).verdict == .passed)
        let crashing = try await run(scenario, CrashingSignInFactory())
        #expect(crashing.verdict == .failed)
        let outcome = try #require(crashing.checks.first { $0.kind == "outcome" })
        #expect(!outcome.passed)
        #expect(outcome.expected.hasPrefix("success or a refusal"))
        #expect(outcome.observed.contains("unexpected"))
    }

    @Test("the skew scenarios place exp and iat around the declared skew, and are skipped without one")
    func declaredClockSkew() async throws {
        let scenario = "oidc/id-token-expired-within-declared-skew-accepted"
        let passed = try await run(scenario, ReferenceClientFactory())
        #expect(passed.verdict == .passed)
        // The reference client declares 60 s: exp 45 s and iat 2 min before the sign-in's instant.
        let idToken = try #require(passed.transcript?.idTokens.first)
        let issuedAt = Int(VirtualClock.defaultOrigin.timeIntervalSince1970)
        #expect(idToken.claims["exp"] == .integer(issuedAt - 45))
        #expect(idToken.claims["iat"] == .integer(issuedAt - 120))
        // Declaring 5 minutes moves the claims with it; the client allows only 60 s, so it refuses.
        let wider = try await run(scenario, ReducedProfileFactory { $0.idTokenClockSkew = .seconds(300) })
        #expect(wider.transcript?.idTokens.first?.claims["exp"] == .integer(issuedAt - 285))
        #expect(wider.verdict == .failed)
        let undeclared = try await run(scenario, ReducedProfileFactory { $0.idTokenClockSkew = nil })
        guard case .skipped(let reason) = undeclared.verdict else {
            Issue.record("not skipped: \(undeclared.verdict)")
            return
        }
        #expect(reason.contains("policies.id_token_clock_skew"))
    }

    @Test("the refetch spacing check passes as declared, and is skipped for a client that declares no interval")
    func declaredRefetchInterval() async throws {
        let scenario = "oidc/unknown-key-refetches-spaced-as-declared"
        #expect(try await run(scenario, ReferenceClientFactory()).verdict == .passed)
        // The reference client refetches at 0 s and 50 s; declaring a minute is caught at that pair.
        let stricter = try await run(scenario, ReducedProfileFactory { $0.jwksRefetchInterval = .seconds(60) })
        #expect(stricter.verdict == .failed)
        #expect(stricter.failedChecks.first?.expected == "at least 1m between consecutive ones")
        let undeclared = try await run(scenario, ReducedProfileFactory { $0.jwksRefetchInterval = nil })
        guard case .skipped(let reason) = undeclared.verdict else {
            Issue.record("not skipped: \(undeclared.verdict)")
            return
        }
        #expect(reason.contains("policies.jwks_refetch_interval"))
    }

    @Test(
        "after a restart the reference client knows its user from the persisted ID token, and discovers the provider again"
    )
    func restartKeepsTheUser() async throws {
        let scenario = try Fixtures.scenario(
            """
            conformance: 1
            id: oidc/restart
            title: t
            area: oidc
            level: MUST
            steps:
              - sign_in:
              - restart:
              - userinfo:
            expect:
              - every_step: succeeds
              - same_user: kept
              - count: { endpoint: openid_configuration, exactly: 2 }
            """
        )
        let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
        #expect(result.verdict == .passed, "\(result.failedChecks.map(\.summary))")
    }

    @Test("a client without openid skips the whole area, naming the capability")
    func withoutOpenID() async throws {
        var capabilities = ReferenceClientFactory().profile.capabilities
        capabilities.remove(.openID)
        let result = try await run("oidc/sign-in-accepted", ReducedProfileFactory(capabilities: capabilities))
        #expect(result.verdict == .skipped(reason: "the client does not declare openid"))
    }
}

@Suite("The OpenID Connect words of the scenario language and the client profile")
struct OpenIDConnectLanguageTests {
    private let header = """
        conformance: 1
        id: oidc/inline
        title: t
        area: oidc
        level: MUST
        steps:
          - sign_in:
            outcome: { error: id_token }
          - userinfo:

        """

    @Test("sign_in, userinfo, distinct, same_user, presents and includes decode")
    func decodes() throws {
        let scenario = try Fixtures.scenario(
            header + """
                expect:
                  - distinct: { endpoint: authorize, parameter: nonce }
                  - same_user: kept
                  - same_user: throughout
                  - never: { presents: refresh_token#1 }
                  - request: { endpoint: authorize, call: 1 }
                    parameters: { scope: { includes: openid } }
                """
        )
        #expect(scenario.steps.map(\.action) == [.client(.signIn), .client(.userinfo)])
        #expect(scenario.steps[0].expectedOutcome == .fails(category: .idToken, oauthError: nil))
        #expect(scenario.requiredCapabilities == [.openID])
        #expect(
            scenario.expectations == [
                .distinctValues(RequestFilter(endpoint: .authorize), parameter: "nonce"),
                .sameUser(allowingSignOut: false),
                .sameUser(allowingSignOut: true),
                .never(RequestFilter(presents: .token(TokenReference(.refresh, 1)))),
                .parameters(
                    RequestFilter(endpoint: .authorize),
                    call: 1,
                    [ParameterRequirement("scope", .includes("openid"))]
                ),
            ]
        )
    }

    @Test("includes matches a word of a space-separated list, not a part of one")
    func includesIsAWord() {
        let openid = ParameterRequirement("scope", .includes("openid"))
        #expect(openid.admits("openid profile email"))
        #expect(openid.admits("profile openid"))
        #expect(!openid.admits("openidx profile"))
        #expect(!openid.admits(nil))
    }

    @Test("mistakes are diagnostics at their line")
    func mistakes() {
        let messages = Fixtures.diagnostics(
            header + """
                expect:
                  - same_user: sometimes
                  - distinct: { endpoint: authorize }
                """
        ).map(\.description)
        #expect(messages.contains { $0.contains(":11:") && $0.contains("same_user must be 'throughout'") })
        #expect(messages.contains { $0.contains(":12:") && $0.contains("parameter") })
        let hs256 = Fixtures.diagnostics(
            header.replacingOccurrences(of: "steps:", with: "provider: { id_tokens: { alg: hs256 } }\nsteps:")
                + "expect:\n  - same_user: kept\n"
        ).map(\.description)
        #expect(hs256.contains { $0.contains("RFC 7518 §3.2") && $0.contains("client_secret") })
    }

    private func profile(_ capabilities: String, policies: String) -> AdapterProfileLoader.Result {
        AdapterProfileLoader.decode(
            """
            profile: 1
            adapter: { command: [/bin/true] }
            capabilities: \(capabilities)
            policies: { \(policies) }
            """,
            file: FileManager.default.temporaryDirectory.appendingPathComponent("p.yaml").path
        )
    }

    @Test("a profile with openid says how it treats the signature, and only checked gives the capability")
    func signaturePolicy() throws {
        let checked = try #require(profile("[openid]", policies: "id_token_signature: checked").profile)
        #expect(checked.capabilities == [.openID, .idTokenSignature])
        let tlsOnly = try #require(profile("[openid]", policies: "id_token_signature: tls_only").profile)
        #expect(tlsOnly.capabilities == [.openID])
        let silent = profile("[openid]", policies: "refresh_window: 60s").diagnostics.map(\.description)
        #expect(silent.contains { $0.contains("openid needs policies.id_token_signature") })
        let listed = profile("[openid, id_token_signature]", policies: "id_token_signature: checked").diagnostics
        #expect(listed.contains { $0.description.contains("id_token_signature is declared as a policy") })
    }

    @Test("a profile with dpop declares what it does with a Bearer answer, and the policy gives the capability")
    func dpopDowngradePolicy() throws {
        let refuse = try #require(profile("[dpop]", policies: "dpop_downgrade: refuse").profile)
        #expect(refuse.capabilities == [.dpop, .dpopDowngradeRefused])
        let bearer = try #require(profile("[dpop]", policies: "dpop_downgrade: use_as_bearer").profile)
        #expect(bearer.capabilities == [.dpop, .dpopDowngradeUsedAsBearer])
        let silent = profile("[dpop]", policies: "refresh_window: 60s").diagnostics.map(\.description)
        #expect(silent.contains { $0.contains("dpop needs policies.dpop_downgrade") })
        let listed = profile("[dpop, dpop_downgrade_refused]", policies: "dpop_downgrade: refuse").diagnostics
        #expect(listed.contains { $0.description.contains("are declared as a policy") })
    }

    @Test("a profile declares the ID token clock skew and the JWKS refetch interval, as durations")
    func clockSkewPolicy() throws {
        let declared = try #require(
            profile("[openid]", policies: "id_token_signature: checked, id_token_clock_skew: 5m").profile
        )
        #expect(declared.idTokenClockSkew == .seconds(300))
        let garbled = profile("[openid]", policies: "id_token_signature: checked, id_token_clock_skew: soon")
        #expect(garbled.diagnostics.contains { $0.description.contains("id_token_clock_skew") })
        let interval = try #require(
            profile("[openid]", policies: "id_token_signature: checked, jwks_refetch_interval: 0s").profile
        )
        #expect(interval.jwksRefetchInterval == .zero)
        #expect(declared.jwksRefetchInterval == nil)
    }

    @Test("from_now takes durations and the client's declared skew, joined by + and -, and nothing else")
    func fromNowAroundTheDeclaredSkew() throws {
        func alteration(_ fromNow: String) -> (IDTokenAlteration?, [String]) {
            let text =
                header.replacingOccurrences(
                    of: "steps:",
                    with: """
                        provider:
                          rules:
                            - when: { endpoint: token }
                              id_token: { from_now: { exp: "\(fromNow)" } }
                        steps:
                        """
                ) + "expect:\n  - same_user: kept\n"
            let diagnostics = Fixtures.diagnostics(text).map(\.description)
            let scenario = try? Fixtures.scenario(text)
            guard let alteration = scenario?.provider.rules.first?.action?.misbehaviour as? IDTokenAlteration else {
                return (nil, diagnostics)
            }
            return (alteration, diagnostics)
        }
        let beyond = try #require(alteration("-client.id_token_clock_skew - 30s").0)
        #expect(beyond.fromNow == ["exp": .seconds(-30)])
        #expect(beyond.fromNowInClientSkews == ["exp": -1])
        let plain = try #require(alteration("-1h").0)
        #expect(plain.fromNow == ["exp": .seconds(-3600)] && plain.fromNowInClientSkews.isEmpty)
        let wrong = alteration("client.refresh_window - 5s")
        #expect(wrong.0 == nil)
        #expect(wrong.1.contains { $0.contains("client.id_token_clock_skew") })
    }
}

/// The reference client, except that completing a sign-in crashes as a library's uncaught
/// exception would.
private struct CrashingSignInFactory: ClientFactory {
    let base = ReferenceClientFactory()
    var profile: ClientProfile { base.profile }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        CrashingSignIn(base: try await base.makeClient(for: environment))
    }

    struct CrashingSignIn: ClientUnderTest {
        let base: any ClientUnderTest
        func perform(_ call: ClientCall) async -> ClientAnswer {
            switch call {
            case .login, .request, .signInURL: await base.perform(call)
            case .completeSignIn:
                .outcome(.failure(ClientFailure(.unexpected, message: "KeyError: 'kid'", errorType: "KeyError")))
            default: call.unsupported
            }
        }
        func shutdown() async { await base.shutdown() }
    }
}
