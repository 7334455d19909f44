import Foundation
import Testing

/// `conformance validate`, `list` and `explain`, as a user or a script calls them.
@Suite("conformance validate, list and explain")
struct ScenarioCommandsTests {
    @Test("validate: the built-in suite is valid, exit 0")
    func validateBuiltIn() async throws {
        let run = try await ProcessRun.conformance(["validate"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.hasSuffix("valid\n"))
        #expect(run.standardError.isEmpty)
    }

    @Test(
        "validate: every problem in every file at once, as file:line:column, with did-you-mean and the allowed values; exit 2"
    )
    func validateBroken() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.yaml")
        try """
        conformance: 1
        id: retry/first
        title: t
        area: retyr
        level: MUST
        steps:
          - login: password
          - concurrently: { times: 3, step: { reqest: GET /resource } }
        expect:
          - never: { carries: refresh_tokens }
        """.write(to: first, atomically: true, encoding: .utf8)
        let second = directory.appendingPathComponent("second.yaml")
        try
            "conformance: 1\nid: retry/second\ntitle: t\narea: retry\nlevel: must\nsteps: [{ wait: 1m }]\nexpect: [{ every_step: succeeds }]\n"
            .write(to: second, atomically: true, encoding: .utf8)
        let run = try await ProcessRun.conformance(["validate", first.path, second.path])
        #expect(run.status == 2)
        let lines = run.standardError.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "\(first.path):4:7: error: 'retyr' is not a valid area; did you mean 'retry'? (allowed: refresh, retry, errors, concurrency, security, tls, oidc, device, dpop, mcp)",
                "\(first.path):8:39: error: unknown key 'reqest' in concurrently.step; did you mean 'request'? (allowed: login, request)",
                "\(first.path):8:37: error: concurrently.step needs one of login, request",
                "\(first.path):10:23: error: 'refresh_tokens' is not a valid never.carries; did you mean 'refresh_token'? (allowed: expired_access_token, refresh_token, access_token_in_query, client_secret, client_secret_in_query, credentials, bearer_for_dpop_token, replayed_dpop_proof, stale_dpop_nonce, another_authorization_servers_credentials)",
                "\(second.path):5:8: error: 'must' is not a valid level; did you mean 'MUST'? (allowed: MUST, SHOULD, POLICY)",
                "\(second.path):6:17: error: wait is real time and at most 10s; to move the scenario's clock, use advance",
                "conformance: 6 errors in the scenario files; nothing else was checked",
            ]
        )
    }

    @Test("list: one line per scenario, filtered by area, tag and level")
    func listText() async throws {
        let all = try await ProcessRun.conformance(["list"])
        #expect(all.status == 0, "\(all.standardError)")
        #expect(all.standardOutput.contains("errors/token-error-surfaced/invalid_grant"))
        let suite = try Fixtures.builtInScenarios()
        let security = try await ProcessRun.conformance(["list", "--area", "security"])
        #expect(Self.ids(security.standardOutput) == suite.filter { $0.area == .security }.map(\.id))
        #expect(Self.ids(security.standardOutput).contains("security/tokens-only-in-authorization-header"))
        let tagged = try await ProcessRun.conformance(["list", "--tag", "single-flight", "--level", "SHOULD"])
        #expect(
            Self.ids(tagged.standardOutput)
                == suite.filter { $0.tags.contains("single-flight") && $0.level == .should }.map(\.id)
        )
        #expect(Self.ids(tagged.standardOutput).contains("concurrency/one-refresh-for-concurrent-expired-requests"))
        let none = try await ProcessRun.conformance(["list", "--tag", "single-flight", "--level", "MUST"])
        #expect(none.status == 0 && none.standardOutput.isEmpty)
    }

    static func ids(_ listing: String) -> [String] {
        listing.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
    }

    @Test("list --format json: an array of objects a script can read")
    func listJSON() async throws {
        let run = try await ProcessRun.conformance(["list", "--area", "errors", "--format", "json"])
        #expect(run.status == 0, "\(run.standardError)")
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [[String: Any]]
        )
        #expect(
            listed.map { $0["id"] as? String }
                == (try Fixtures.builtInScenarios()).filter { $0.area == .errors }.map(\.id)
        )
        let first = try #require(listed.first { $0["id"] as? String == "errors/token-error-surfaced/invalid_request" })
        #expect(first["id"] as? String == "errors/token-error-surfaced/invalid_request")
        #expect(first["level"] as? String == "MUST")
        #expect(first["tags"] as? [String] == ["token-endpoint", "error-codes"])
        #expect(first["parameters"] as? [String: String] == ["code": "invalid_request"])
    }

    @Test("list: an unknown area is a usage error listing the allowed ones, exit 2")
    func listUnknownArea() async throws {
        let run = try await ProcessRun.conformance(["list", "--area", "refrsh"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("refresh"))
    }

    @Test("list --format markdown writes pages, so it needs --pages, and --pages needs it: usage errors, exit 2")
    func listMarkdownNeedsPages() async throws {
        let markdown = try await ProcessRun.conformance(["list", "--format", "markdown"])
        #expect(markdown.status == 2)
        #expect(markdown.standardError.contains("--pages docs/checks"), "\(markdown.standardError)")
        #expect(markdown.standardOutput.isEmpty)
        let pages = try await ProcessRun.conformance(["list", "--pages", "unwritten"])
        #expect(pages.status == 2)
        #expect(pages.standardError.contains("--format markdown"), "\(pages.standardError)")
    }

    @Test("explain: the provider, the steps, what a conforming client does, the spec and the level")
    func explain() async throws {
        let run = try await ProcessRun.conformance(["explain", "retry/401-on-valid-token-refreshes-once-and-replays"])
        #expect(run.status == 0, "\(run.standardError)")
        let text = run.standardOutput
        #expect(text.contains("Level: SHOULD (strong practice in mature client libraries)."))
        #expect(text.contains("Spec: RFC 6750 §3.1; catalogue RR-01."))
        #expect(text.contains("Requires: refresh_on_401; a client that does not declare it is skipped."))
        #expect(
            text.contains(
                #"rule 1: for resource request no. 1, answers HTTP 401 with WWW-Authenticate: Bearer error="invalid_token""#
            )
        )
        #expect(text.contains("  2. request GET /resource"))
        #expect(text.contains("  - resource request no. 2 carries access_token#2"))
    }

    @Test("explain: a matrix scenario names its parameters and the outcome each step must have")
    func explainMatrix() async throws {
        let run = try await ProcessRun.conformance(["explain", "errors/token-error-surfaced/invalid_client"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("matrix: code=invalid_client"))
        #expect(run.standardOutput.contains("answers with the RFC 6749 §5.2 error invalid_client (HTTP 401)"))
        #expect(
            run.standardOutput.contains(
                "  1. sign_in any, which must end in a refusal (an error of any category but unexpected or unsupported) with error code invalid_client"
            )
        )
    }

    @Test("explain: an unknown id is an input error that suggests the ids it is part of, exit 2")
    func explainUnknown() async throws {
        let run = try await ProcessRun.conformance(["explain", "errors/token-error-surfaced"])
        #expect(run.status == 2)
        #expect(
            run.standardError.contains(
                "no scenario has the id 'errors/token-error-surfaced'; did you mean one of: errors/token-error-surfaced/invalid_request"
            )
        )
    }
}
