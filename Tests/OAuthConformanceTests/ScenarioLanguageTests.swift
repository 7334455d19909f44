import MockProvider
import Testing

@testable import OAuthConformance

/// The constructs of format 1 beyond the basics: tags, concurrent and waiting steps, order and
/// the placement checks, matrices. Each decodes to the model it describes, and each misuse is a
/// diagnostic at the right place.
@Suite("The scenario language")
struct ScenarioLanguageTests {
    /// A valid scenario with these lines in place of its steps and expectations.
    static func scenario(
        steps: String = "  - login: password",
        expect: String = "  - every_step: succeeds",
        extra: String = ""
    ) -> String {
        """
        conformance: 1
        id: retry/example
        title: t
        area: retry
        level: MUST
        \(extra)steps:
        \(steps)
        expect:
        \(expect)
        """
    }

    @Test("tags are a list of words, and a malformed tag is pointed at")
    func tags() throws {
        let scenario = try Fixtures.scenario(Self.scenario(extra: "tags: [single-flight, rotation]\n"))
        #expect(scenario.tags == ["single-flight", "rotation"])
        let diagnostics = Fixtures.diagnostics(Self.scenario(extra: "tags: [ok, Not OK]\n"))
        #expect(
            diagnostics.map(\.description) == [
                "broken.yaml:6:12: error: tag 'Not OK' may hold only lowercase letters, digits and - _ . (e.g. single-flight)"
            ]
        )
    }

    @Test("concurrently and wait decode into their steps")
    func concurrentAndWaitSteps() throws {
        let scenario = try Fixtures.scenario(
            Self.scenario(
                steps: """
                      - login: password
                      - concurrently: { times: 20, step: { request: GET /resource } }
                        outcome: succeeds
                      - wait: 200ms
                    """
            )
        )
        #expect(
            scenario.steps == [
                .login(.password),
                Step(.concurrently(times: 20, .request(method: "GET", path: "/resource")), expecting: .succeeds),
                .wait(.milliseconds(200)),
            ]
        )
    }

    @Test("order and the placement checks decode into expectations")
    func orderAndNever() throws {
        let scenario = try Fixtures.scenario(
            Self.scenario(
                expect: """
                      - order: [{ endpoint: token, grant: refresh_token }, { endpoint: resource }]
                      - never: { endpoint: resource, carries: refresh_token }
                      - never: { carries: access_token_in_query }
                    """
            )
        )
        #expect(
            scenario.expectations == [
                .order([.token(grant: .refreshToken), .resource()]),
                .never(.resource(), carrying: .refreshToken),
                .never(RequestFilter(), carrying: .accessTokenInQuery),
            ]
        )
        #expect(
            scenario.expectations.map(\.statement) == [
                "in this order: the first token request (grant refresh_token), then the first resource request",
                "no resource requests carrying a refresh token",
                "no request carrying an access token in the query string",
            ]
        )
    }

    @Test(
        "misused steps and expectations are explained where they are written",
        arguments: [
            (
                scenario(steps: "  - concurrently: { times: 0, step: { request: GET /resource } }"),
                "broken.yaml:7:28: error: concurrently.times must be between 1 and 200, not 0"
            ),
            (
                scenario(steps: "  - concurrently: { times: 2, step: { advance: 5s } }"),
                "broken.yaml:7:39: error: unknown key 'advance' in concurrently.step (allowed: login, request)\n"
                    + "broken.yaml:7:37: error: concurrently.step needs one of login, request"
            ),
            (
                scenario(steps: "  - concurrently: { times: 2, step: { request: GET /resource, outcome: succeeds } }"),
                "broken.yaml:7:63: error: put 'outcome' beside 'concurrently'; it then applies to each of the 2 operations"
            ),
            (
                scenario(steps: "  - concurrently: { step: { request: GET /resource } }"),
                "broken.yaml:7:19: error: concurrently is missing 'times' (how many at once, e.g. times: 20)"
            ),
            (
                scenario(steps: "  - wait: 11s"),
                "broken.yaml:7:11: error: wait is real time and at most 10s; to move the scenario's clock, use advance"
            ),
            (
                scenario(steps: "  - advance: 5s\n    outcome: succeeds"),
                "broken.yaml:8:5: error: 'advance' does not involve the client and has no outcome; 'outcome' goes with login, authorize, sign_in, userinfo, exchange, device_sign_in, native_sign_in, mcp_sign_in, mcp_call, request, restart, concurrently"
            ),
            (
                scenario(expect: "  - order: [{ endpoint: token }]"),
                "broken.yaml:9:12: error: order needs at least two request filters, e.g. [{ endpoint: token }, { endpoint: resource }]"
            ),
            (
                scenario(expect: "  - order: [{ endpoint: token }, { endpoint: token }]"),
                "broken.yaml:9:34: error: order lists token request twice; the check could never pass"
            ),
            (
                scenario(expect: "  - never: { carries: refresh_tokens }"),
                "broken.yaml:9:23: error: 'refresh_tokens' is not a valid never.carries; did you mean 'refresh_token'? (allowed: expired_access_token, refresh_token, access_token_in_query, client_secret, client_secret_in_query, credentials, bearer_for_dpop_token, replayed_dpop_proof, stale_dpop_nonce, another_authorization_servers_credentials)"
            ),
        ]
    )
    func mistakes(_ yaml: String, _ expected: String) {
        #expect(Fixtures.diagnostics(yaml).map(\.description).joined(separator: "\n") == expected)
    }

    static let matrixScenario = """
        conformance: 1
        id: errors/surfaced/{code}
        title: The {code} error is surfaced
        area: errors
        level: MUST
        matrix:
          code: [invalid_grant, invalid_scope]
        provider:
          rules:
            - when: { endpoint: token, grant: password }
              error: { code: "{code}", status: "{status}" }
        steps:
          - login: password
            outcome: { error: { oauth_error: "{code}" } }
        expect:
          - count: { endpoint: token, at_most: 1 }
        """

    @Test("a matrix makes one scenario per value, substituted everywhere, typed like the value")
    func matrixExpands() throws {
        let collector = DiagnosticCollector()
        let yaml = Self.matrixScenario
            .replacingOccurrences(
                of: "  code: [invalid_grant, invalid_scope]",
                with: "  code: [invalid_grant, invalid_scope]\n  status: [400, 401]"
            )
            .replacingOccurrences(of: "id: errors/surfaced/{code}", with: "id: errors/surfaced/{code}/{status}")
        let scenarios = ScenarioLoader.decode(yaml, file: "matrix.yaml", diagnostics: collector)
        #expect(collector.diagnostics.isEmpty, "\(collector.diagnostics.map(\.description))")
        #expect(
            scenarios.map(\.id) == [
                "errors/surfaced/invalid_grant/400", "errors/surfaced/invalid_grant/401",
                "errors/surfaced/invalid_scope/400", "errors/surfaced/invalid_scope/401",
            ]
        )
        let last = try #require(scenarios.last)
        #expect(last.title == "The invalid_scope error is surfaced")
        #expect(last.parameters == ["code": "invalid_scope", "status": "401"])
        #expect(
            last.provider.rules.first?.action == .oauthError(ScriptedOAuthError(code: "invalid_scope", status: 401))
        )
        #expect(last.steps.first?.expectedOutcome == .fails(category: nil, oauthError: "invalid_scope"))
    }

    @Test(
        "a quoted placeholder takes the matrix value's own JSON type in a token response: integer, fraction, string, boolean",
        arguments: [
            ("7199.5", JSONValue.number(7199.5)), ("-60", .integer(-60)), ("\"3600\"", .string("3600")),
            ("soon", .string("soon")), ("true", .bool(true)),
        ]
    )
    func matrixValueKeepsItsType(_ written: String, _ expected: JSONValue) throws {
        let collector = DiagnosticCollector()
        let scenarios = ScenarioLoader.decode(
            """
            conformance: 1
            id: refresh/odd/{expires_in}
            title: An odd expires_in
            area: refresh
            level: SHOULD
            matrix:
              expires_in: [\(written)]
            provider:
              rules:
                - when: { endpoint: token }
                  token_response: { expires_in: "{expires_in}" }
            steps:
              - login: password
            expect:
              - every_step: succeeds
            """,
            file: "odd.yaml",
            diagnostics: collector
        )
        #expect(collector.diagnostics.isEmpty, "\(collector.diagnostics.map(\.description))")
        let rule = try #require(scenarios.first?.provider.rules.first)
        guard let alteration = rule.action?.misbehaviour as? TokenResponseAlteration else {
            Issue.record("not a token response alteration: \(rule.action)")
            return
        }
        #expect(alteration.set["expires_in"] == expected)
    }

    @Test("a matrix value that breaks a field is reported at the placeholder's line:column, once per distinct problem")
    func matrixDiagnosticsKeepTheirPlace() {
        let yaml = Self.matrixScenario
            .replacingOccurrences(
                of: "  code: [invalid_grant, invalid_scope]",
                with: "  code: [invalid_grant, invalid_scope]\n  status: [400, lots]"
            )
            .replacingOccurrences(of: "id: errors/surfaced/{code}", with: "id: errors/surfaced/{code}/{status}")
            .replacingOccurrences(of: "title: The {code} error is surfaced", with: "titel: misspelt")
        let rendered = Fixtures.diagnostics(yaml).map(\.description)
        #expect(
            rendered.contains("broken.yaml:12:40: error: error.status must be a whole number, not 'lots'"),
            "\(rendered)"
        )
        #expect(rendered.filter { $0.contains("unknown key 'titel'") }.count == 1, "\(rendered)")
        // titel, the missing title, 'lots' (each once, not once per combination)
        #expect(rendered.count == 3, "\(rendered)")
    }

    @Test(
        "matrix mistakes: an unknown placeholder, an id without the parameter, an empty list, a name twice",
        arguments: [
            (
                ["error: { code: \"{code}\" }": "error: { code: \"{cdoe}\" }"],
                "broken.yaml:11:22: error: '{cdoe}' is not a matrix parameter (parameters: code; did you mean 'code'?)"
            ),
            (
                ["id: errors/surfaced/{code}": "id: errors/surfaced"],
                "broken.yaml:2:5: error: id must contain {code}, so that each combination of the matrix has its own id"
            ),
            (
                ["code: [invalid_grant, invalid_scope]": "code: []"],
                "broken.yaml:7:9: error: matrix.code must be a non-empty list of values"
            ),
            (
                ["code: [invalid_grant, invalid_scope]": "code: [invalid_grant]\n  \"code\": [invalid_scope]"],
                "broken.yaml:8:3: error: the key 'code' is given again in this mapping (first on line 7); keep one"
            ),
        ]
    )
    func matrixMistakes(_ replacements: [String: String], _ expected: String) {
        var yaml = Self.matrixScenario.replacingOccurrences(of: ", status: \"{status}\"", with: "")
        for (old, new) in replacements { yaml = yaml.replacingOccurrences(of: old, with: new) }
        #expect(Fixtures.diagnostics(yaml).map(\.description) == [expected])
    }

    @Test("a broken matrix does not hide the scenario's other problems")
    func brokenMatrixStillReportsTheRest() {
        let yaml = Self.matrixScenario
            .replacingOccurrences(
                of: "error: { code: \"{code}\", status: \"{status}\" }",
                with: "error: { code: \"{cdoe}\" }"
            )
            .replacingOccurrences(of: "area: errors", with: "area: eror")
        #expect(
            Fixtures.diagnostics(yaml).map(\.description) == [
                "broken.yaml:11:22: error: '{cdoe}' is not a matrix parameter (parameters: code; did you mean 'code'?)",
                "broken.yaml:4:7: error: 'eror' is not a valid area; did you mean 'errors'? (allowed: refresh, retry, errors, concurrency, security, tls, oidc, device, dpop, mcp)",
            ]
        )
    }

    @Test("a placeholder in a scenario without a matrix is an error")
    func placeholderWithoutMatrix() {
        let rendered = Fixtures.diagnostics(
            Self.scenario(steps: "  - login: password\n    outcome: { error: { oauth_error: \"{code}\" } }")
        ).map(\.description)
        #expect(
            rendered == ["broken.yaml:8:38: error: '{code}' is not a matrix parameter (this scenario has no matrix)"]
        )
    }

    @Test("an empty list of scenarios is an error, not an empty suite")
    func emptyList() {
        #expect(
            Fixtures.diagnostics("[]").map(\.message) == [
                "the file holds an empty list; it should hold a scenario or a list of them"
            ]
        )
    }
}
