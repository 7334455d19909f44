import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

@Suite("Loading scenario files")
struct ScenarioLoadingTests {
    @Test("the built-in scenarios load without a single diagnostic")
    func builtInScenariosAreClean() {
        let loaded = ScenarioLoader.load(paths: [PackageFiles.scenarios.path])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.description))")
        let files =
            FileManager.default.enumerator(atPath: PackageFiles.scenarios.path)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix(".yaml")
            } ?? []
        #expect(loaded.scenarios.count >= files.count, "every file holds at least one scenario")
        #expect(Set(loaded.scenarios.map(\.id)).count == loaded.scenarios.count, "ids are unique")
        #expect(
            loaded.scenarios.filter { $0.id.hasPrefix("errors/token-error-surfaced/") }.count == 6,
            "one per RFC 6749 §5.2 code"
        )
        // The issue asks for at least 60 scenario results; matrices give one per combination.
        #expect(loaded.scenarios.count >= 60)
    }

    @Test("a scenario file decodes into the model it describes")
    func decodesTheModel() throws {
        let scenario = try Fixtures.builtInScenario("refresh/keeps-refresh-token-when-response-omits-it")
        #expect(scenario.area == .refresh)
        #expect(scenario.level == .must)
        #expect(scenario.provider.tokens.accessLifetime == .seconds(3600))
        #expect(
            scenario.provider.rules == [
                ProviderRule(
                    match: RequestMatcher(endpoint: .token, grant: .refreshToken, calls: .nth(1)),
                    action: .alterTokenResponse(TokenResponseAlteration(omit: ["refresh_token"]))
                )
            ]
        )
        #expect(
            scenario.steps.map(\.action.text) == [
                "sign_in any", "advance to expiry(access_token#1) + 10s", "request GET /resource",
                "advance to expiry(access_token#2) + 10s", "request GET /resource",
            ]
        )
        #expect(
            scenario.expectations == [
                .everyStepSucceeds,
                .count(RequestFilter(endpoint: .token, grant: .refreshToken), .exactly(2)),
                .carries(
                    RequestFilter(endpoint: .token, grant: .refreshToken),
                    call: 2,
                    token: CarriedToken(TokenReference(.refresh, 1))
                ),
            ]
        )
    }

    @Test("every problem in a file is reported at once, each with file:line:column")
    func allProblemsAtOnce() {
        let diagnostics = Fixtures.diagnostics(
            """
            conformance: 1
            id: refresh/broken
            titel: misspelt key
            area: refrsh
            level: MUST
            provider:
              tokens: { access_lifetime: 120 }
            steps:
              - login: password
              - request: FETCH /resource
              - advance_to: expiry(access_token#1) ~ 5s
            expect:
              - count: { endpoint: token, exactly: many }
            """
        )
        let rendered = diagnostics.map(\.description)
        #expect(
            rendered.contains(
                "broken.yaml:3:1: error: unknown key 'titel' in a scenario; did you mean 'title'? (allowed: conformance, id, title, description, area, family, level, spec, oidf, tags, requires, matrix, provider, steps, precondition, expect)"
            )
        )
        #expect(rendered.contains("broken.yaml:1:1: error: a scenario is missing 'title'"))
        #expect(
            rendered.contains(
                "broken.yaml:4:7: error: 'refrsh' is not a valid area; did you mean 'refresh'? (allowed: refresh, retry, errors, concurrency, security, tls, oidc, device, dpop, mcp)"
            )
        )
        #expect(
            rendered.contains(
                "broken.yaml:7:30: error: access_lifetime: '120' has no unit; write it as 120s (units: ms, s, m, h, d)"
            )
        )
        #expect(rendered.contains { $0.hasPrefix("broken.yaml:10:14: error: request must read 'METHOD /path'") })
        #expect(rendered.contains("broken.yaml:11:40: error: advance_to: expected '+' or '-' before '~ 5s'"))
        #expect(rendered.contains("broken.yaml:13:40: error: exactly must be a whole number, not 'many'"))
        #expect(diagnostics.count == 7, "\(rendered)")
    }

    @Test("a YAML syntax error points at its position")
    func syntaxError() {
        let diagnostics = Fixtures.diagnostics("conformance: 1\nid: [unclosed\n")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.location?.line == 3)
        #expect(diagnostics.first?.message.hasPrefix("invalid YAML") == true)
    }

    @Test("the format version is required and checked")
    func formatVersion() {
        let missing = Fixtures.diagnostics(
            "id: a\ntitle: t\narea: retry\nlevel: MUST\nsteps: [{login: password}]\nexpect: [{every_step: succeeds}]\n"
        )
        #expect(missing.map(\.message) == ["a scenario is missing 'conformance' (the format version: conformance: 1)"])
        let future = Fixtures.diagnostics(
            "conformance: 2\nid: a\ntitle: t\narea: retry\nlevel: MUST\nsteps: [{login: password}]\nexpect: [{every_step: succeeds}]\n"
        )
        #expect(
            future.map(\.description) == [
                "broken.yaml:1:14: error: format version 2 is not supported; this harness reads conformance: 1"
            ]
        )
    }

    @Test("a step or expectation with two forms, or none, is refused")
    func exactlyOneForm() {
        let diagnostics = Fixtures.diagnostics(
            """
            conformance: 1
            id: a
            title: t
            area: retry
            level: MUST
            steps:
              - { login: password, advance: 5s }
              - { outcome: succeeds }
            expect:
              - { every_step: succeeds, never: { endpoint: resource } }
            """
        )
        #expect(
            diagnostics.map(\.description) == [
                "broken.yaml:7:24: error: a step has login, advance; give only one of them",
                "broken.yaml:8:5: error: a step needs one of login, authorize, sign_in, userinfo, exchange, device_sign_in, native_sign_in, mcp_sign_in, mcp_call, request, restart, concurrently, advance, advance_to, wait, revoke, authorization_server",
                "broken.yaml:10:29: error: an expectation has every_step, never; give only one of them",
            ]
        )
    }

    @Test("token references name where the token travels, and its kind must agree")
    func carriesKindMustAgree() {
        let diagnostics = Fixtures.diagnostics(
            """
            conformance: 1
            id: a
            title: t
            area: retry
            level: MUST
            steps: [{ login: password }]
            expect:
              - request: { endpoint: resource, call: 1 }
                carries: { access_token: refresh_token#1 }
            """
        )
        #expect(
            diagnostics.map(\.description) == [
                "broken.yaml:9:30: error: carries.access_token must name a access_token, not refresh_token#1"
            ]
        )
    }

    @Test("a list of scenarios in one file, and duplicate ids across them")
    func scenarioListAndDuplicates() {
        let scenario =
            "{ conformance: 1, id: same, title: t, area: retry, level: MUST, steps: [{ login: password }], expect: [{ every_step: succeeds }] }"
        let collector = DiagnosticCollector()
        let scenarios = ScenarioLoader.decode(
            "- \(scenario)\n- \(scenario)\n",
            file: "list.yaml",
            diagnostics: collector
        )
        #expect(scenarios.count == 2)
        #expect(collector.diagnostics.isEmpty)
    }

    @Test("a missing path is an error, not an empty suite")
    func missingPath() {
        let loaded = ScenarioLoader.load(paths: ["/nonexistent/scenarios"])
        #expect(loaded.hasErrors)
        #expect(loaded.diagnostics.map(\.message) == ["no such file or directory: /nonexistent/scenarios"])
    }
}
