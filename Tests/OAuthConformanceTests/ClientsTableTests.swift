import Foundation
import Testing

@testable import OAuthConformance

/// The public table of client libraries (docs/clients.md): the behaviour families it is built
/// on, the page rendered from hand-made results, and `conformance report --clients-table`.
@Suite("Clients table")
struct ClientsTableTests {
    @Test("every built-in scenario names its behaviour family, and every family has scenarios")
    func familiesCoverTheBuiltInSuite() throws {
        let scenarios = try Fixtures.builtInScenarios()
        #expect(scenarios.count > 50, "the built-in suite was loaded")
        for scenario in scenarios {
            #expect(
                scenario.family != nil,
                "\(scenario.id) names no family: add `family:` to \(scenario.file ?? "its file")"
            )
        }
        for family in BehaviourFamily.all {
            #expect(scenarios.contains { $0.family == family }, "no built-in scenario names \(family.id)")
        }
    }

    @Test("a family's id and a client's page name are file names: lower case, no spaces, one page each")
    func pageNames() {
        for family in BehaviourFamily.all + [.other] {
            #expect(family.id.allSatisfy { $0.isLowercase || $0.isNumber || "-_".contains($0) }, "\(family.id)")
        }
        let paths = ClientsTable().pages(Self.twoClients()).map(\.path)
        #expect(Array(paths.prefix(3)) == ["clients.md", "clients/x-lib-a.md", "clients/lib-b.md"])
        #expect(paths.contains("clients/families/401-handling.md"))
        #expect(Set(paths).count == paths.count)
    }

    @Test("a row per client, a cell per family: pass with counts, fail (expected failures too), not supported")
    func cells() {
        let page = ClientsTable().pages(Self.twoClients())[0].text
        #expect(page.contains("| Client | Proactive refresh | 401 handling | Single-flight |"))
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| [lib-") }
        #expect(rows.count == 2)
        let first = String(rows[0])
        #expect(
            first.hasPrefix(
                "| [lib-a 1.0](clients/x-lib-a.md) | [· not run](clients/families/proactive-refresh.md) | [❌ fail MUST 1/3](clients/families/401-handling.md) |"
            )
        )
        #expect(first.contains("[✅ pass 1/1, 1 skipped](clients/families/tls.md)"))
        let second = String(rows[1])
        #expect(second.contains("[✅ pass 3/3](clients/families/401-handling.md)"))
        #expect(second.contains("[➖ not supported, 2 skipped](clients/families/tls.md)"))
        #expect(
            page.contains(
                "- [lib-a 1.0](clients/x-lib-a.md): 2 passed, 1 failed, 1 skipped, 0 errors, 1 expected failures"
            )
        )
        #expect(!page.contains("Other scenarios"), "no column for unclaimed scenarios when there are none")
    }

    @Test("per library: the profile's reasons with their scenarios, unexpected failures, what is not supported")
    func librarySections() {
        let pages = ClientsTable().pages(Self.twoClients())
        let libA = Self.page(pages, "clients/x-lib-a.md")
        #expect(libA.hasPrefix("[← OAuth client libraries: what each gets right](../clients.md)\n\n# lib-a 1.0\n"))
        #expect(
            libA.contains(
                "- **401 handling**: refreshes twice after one 401 (confirmed without the harness by "
                    + "<code>.venv/bin/python probes/storm.py twice</code>, run from the profile's folder) — "
                    + "`retry/401-storm-bounded`\n"
            )
        )
        #expect(
            libA.contains(
                "- **401 handling**: fails: number of token requests (grant refresh_token) is at most 1 [SHOULD] "
                    + "(not in its profile's expected failures) — `retry/401-without-challenge-bounded`\n"
            ),
            "a failure no profile expected names the checks it failed, and says so"
        )
        #expect(libA.contains("Not supported, so skipped: the client does not declare pinning (1)."))
        #expect(libA.contains("Profile [`Adapters/x/lib-a.yaml`](../../Adapters/x/lib-a.yaml)"))
        #expect(libA.contains("5 scenarios: 2 passed, 2 failed (1 of them expected by its profile), 1 skipped"))
        let libB = Self.page(pages, "clients/lib-b.md")
        #expect(libB.contains("Passes every scenario it runs."))
        #expect(libB.contains("Built into the harness"))
        #expect(!libB.contains("Evidence"))
    }

    @Test("the evidence is the timeline of one failure: MUST before SHOULD, never a family whose timelines vary")
    func evidence() throws {
        let libA = Self.page(ClientsTable().pages(Self.twoClients()), "clients/x-lib-a.md")
        #expect(libA.contains("Evidence, `retry/401-storm-bounded` (XFAIL)"), "the MUST failure, not the SHOULD one")
        #expect(libA.contains(">   t=+0s  #2 POST /token grant_type=refresh_token refresh_token=rt-1 → 200"))
        #expect(libA.contains("✗ number of token requests (grant refresh_token) is at most 1 [MUST]"))

        // A client failing a MUST in a family whose timelines vary (fresh state and PKCE values)
        // and a SHOULD elsewhere: the SHOULD's timeline is quoted, as it reads the same every run.
        var client = Self.result(
            "lib-c",
            "3.0",
            [
                Self.scenario(
                    "security/authorization-response-state-refused/forged",
                    family: "authorization-code-flow",
                    .failed,
                    level: "MUST",
                    timeline: [
                        "t=+0s  step 1: authorize → success (200)",
                        ">   t=+0s  #1 GET /authorize?state=abc123 → 302",
                    ]
                ),
                Self.scenario("refresh/odd-expires-in/soon", family: "expires_in-handling", .failed, level: "SHOULD"),
            ]
        )
        #expect(
            Self.page(ClientsTable().pages([client]), "clients/lib-c.md").contains(
                "Evidence, `refresh/odd-expires-in/soon` (FAIL)"
            )
        )
        // With nothing else failing, the varying family's timeline is quoted, its one-time values masked.
        client.scenarios.removeLast()
        let only = Self.page(ClientsTable().pages([client]), "clients/lib-c.md")
        #expect(only.contains("Evidence, `security/authorization-response-state-refused/forged` (FAIL)"))
        #expect(only.contains("GET /authorize?state=… → 302"))
    }

    @Test("nothing that differs between two runs of the same clients reaches the page")
    func stableAcrossRuns() {
        let first = Self.twoClients()
        var second = first
        for index in second.indices {
            // Later the same day (the first run started at 22:13 UTC): the page states the day only.
            second[index].startedAt = first[index].startedAt + 3600
            second[index].milliseconds += 1234
            for scenario in second[index].scenarios.indices {
                second[index].scenarios[scenario].milliseconds += 17
                second[index].scenarios[scenario].clientOutput = "pid \(index) at /tmp/run-\(scenario)"
                second[index].scenarios[scenario].timeline = second[index].scenarios[scenario].timeline?.map {
                    $0.replacingOccurrences(of: "127.0.0.1:40001", with: "127.0.0.1:52345")
                        .replacingOccurrences(of: "/tmp/first/ca.pem", with: "/tmp/second/ca.pem")
                }
            }
        }
        let pages = ClientsTable().pages(first)
        #expect(pages == ClientsTable().pages(second))
        let page = pages.map(\.text).joined()
        #expect(page.contains("http://127.0.0.1:PORT/token"))
        #expect(page.contains("<temporary file>"))
        #expect(!page.contains("40001"))
    }

    @Test(
        "a reason the profile gives is published only with the probe that confirms it; without one, the failed checks"
    )
    func unprobedReasons() {
        var clients = Self.twoClients()
        clients[0].scenarios[0].probe = nil
        let libA = Self.page(ClientsTable().pages(clients), "clients/x-lib-a.md")
        #expect(!libA.contains("refreshes twice after one 401"))
        #expect(
            libA.contains(
                "- **401 handling**: fails: number of token requests (grant refresh_token) is at most 1 [MUST] "
                    + "(expected by its profile; its reason awaits a probe) — `retry/401-storm-bounded`\n"
            )
        )
    }

    @Test(
        "a family the library leaves to the application is marked so in its cell and on its page, whatever its verdicts"
    )
    func applicationPart() {
        var clients = Self.twoClients()
        clients[0].client.applicationPart = [
            ApplicationPart(
                family: "401-handling",
                reason: "the library never calls a resource; the adapter sends the token"
            )
        ]
        let pages = ClientsTable().pages(clients)
        #expect(pages[0].text.contains("[🧩 application's part 1/3](clients/families/401-handling.md)"))
        #expect(!pages[0].text.contains("❌ fail MUST 1/3"))
        #expect(
            Self.page(pages, "clients/x-lib-a.md").contains(
                "- **401 handling**: the library never calls a resource; the adapter sends the token"
            )
        )
    }

    @Test("the table states the day of the latest run, and lists who implements each modern flow with its verdict")
    func runDayAndModernFlows() {
        var clients = Self.twoClients()
        clients[1].client.capabilities = ["device_grant", "private_key_jwt"]
        let page = ClientsTable().pages(clients)[0].text
        #expect(page.contains("Run on 2023-11-14 (the latest of its clients' runs)."))
        #expect(
            page.contains(
                "- **Device authorization grant (RFC 8628)** (Device authorization polling): [lib-b 2.0](clients/lib-b.md) · not run\n"
            )
        )
        #expect(page.contains("- **DPoP (RFC 9449)** (DPoP): no client here implements it\n"))
        #expect(
            page.contains(
                "- **JWT client authentication (RFC 7523)** (Client assertions): [lib-b 2.0](clients/lib-b.md)"
            )
        )
    }

    @Test("per family: every scenario's verdict per client, linked to its file in the repository")
    func familySections() {
        let pages = ClientsTable().pages(Self.twoClients())
        let retry = Self.page(pages, "clients/families/401-handling.md")
        #expect(
            retry.hasPrefix("[← OAuth client libraries: what each gets right](../../clients.md)\n\n# 401 handling\n")
        )
        #expect(retry.contains("| Scenario | Level | lib-a 1.0 | lib-b 2.0 |"))
        #expect(
            retry.contains(
                "| [`retry/401-storm-bounded`](../../../Scenarios/retry/401-storm-bounded.yaml) | MUST | XFAIL | PASS |"
            )
        )
        #expect(retry.contains("| `retry/401-without-challenge-bounded` | SHOULD | FAIL | PASS |"), "no file, no link")
        let tls = Self.page(pages, "clients/families/tls.md")
        #expect(tls.contains("| SHOULD | SKIP | SKIP |"))
        #expect(ClientsTable.repositoryPath(ofScenarioFile: "/work/x/Scenarios/tls/a.yaml") == "Scenarios/tls/a.yaml")
        #expect(ClientsTable.repositoryPath(ofScenarioFile: "/elsewhere/mine.yaml") == nil)
    }

    @Test("a scenario that names no family gets a column of its own")
    func unclaimedScenarios() {
        let pages = ClientsTable().pages([Self.result("lib", "1", [Self.scenario("mine/custom-check", .passed)])])
        let page = pages[0].text
        #expect(page.contains("| Client | Proactive refresh |"))
        #expect(page.contains("| Sign-in exchanged at the app server | Other scenarios |"))
        #expect(page.contains("[✅ pass 1/1](clients/families/other-scenarios.md)"))
        #expect(
            Self.page(pages, "clients/families/other-scenarios.md").contains("| `mine/custom-check` | SHOULD | PASS |")
        )
    }

    @Test("report --clients-table writes the table, linking scenario files and profiles from where it is written")
    func reportOption() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var results: [String] = []
        for (index, result) in Self.twoClients().enumerated() {
            try JSONReport.render(result).write(
                to: directory.appendingPathComponent("result-\(index).json"),
                atomically: true,
                encoding: .utf8
            )
            results.append("result-\(index).json")
        }
        // Run where the results' paths start, as scripts/clients-table runs in the repository root.
        let report = try await ProcessRun.run(
            PackageFiles.conformanceExecutable,
            ["report", "--html", "matrix.html", "--clients-table", "docs/clients.md"] + results,
            in: directory
        )
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("Clients table: docs/clients.md"))
        #expect(
            report.standardOutput.contains("Clients table pages: \(BehaviourFamily.all.count + 2) in docs/clients/")
        )
        for page in ClientsTable(repositoryRoot: "../").pages(Self.twoClients()) {
            let written = try String(contentsOf: directory.appendingPathComponent("docs/" + page.path), encoding: .utf8)
            #expect(written == page.text, "\(page.path)")
        }
        let family = try String(
            contentsOf: directory.appendingPathComponent("docs/clients/families/401-handling.md"),
            encoding: .utf8
        )
        #expect(family.contains("](../../../Scenarios/retry/401-storm-bounded.yaml)"))
        let library = try String(
            contentsOf: directory.appendingPathComponent("docs/clients/x-lib-a.md"),
            encoding: .utf8
        )
        #expect(library.contains("](../../Adapters/x/lib-a.yaml)"))
    }

    // MARK: - Hand-made results

    /// lib-a fails two 401 scenarios (one as its profile expects) and passes TLS but for pinning;
    /// lib-b passes every 401 scenario and supports no TLS.
    static func twoClients() -> [ConformanceResult] {
        var storm = scenario(
            "retry/401-storm-bounded",
            family: "401-handling",
            .expectedFailure,
            level: "MUST",
            reason: "refreshes twice after one 401",
            file: "Scenarios/retry/401-storm-bounded.yaml",
            timeline: [
                "t=+0s  step 1: request GET /resource → error transient: 401 for url: http://127.0.0.1:40001/token (CA /tmp/first/ca.pem)",
                "    t=+0s  #1 GET /resource Bearer at-1 → 401",
                ">   t=+0s  #2 POST /token grant_type=refresh_token refresh_token=rt-1 → 200",
                ">   t=+0s  #3 POST /token grant_type=refresh_token refresh_token=rt-2 → 200",
            ]
        )
        storm.probe = ".venv/bin/python probes/storm.py twice"
        var withoutChallenge = storm
        withoutChallenge.id = "retry/401-without-challenge-bounded"
        // Failed, but not as its profile expects: no reason, and a SHOULD where the storm is a MUST.
        withoutChallenge.verdict = .failed
        withoutChallenge.reason = nil
        withoutChallenge.probe = nil
        withoutChallenge.file = nil
        withoutChallenge.level = "SHOULD"
        withoutChallenge.checks = withoutChallenge.checks.map { check in
            var check = check
            check.level = .should
            return check
        }
        let libA = result(
            "lib-a",
            "1.0",
            [
                storm,
                withoutChallenge,
                scenario("retry/insufficient-scope-not-refreshed", family: "401-handling", .passed),
                scenario("tls/valid-certificate-accepted", family: "tls", .passed),
                scenario(
                    "tls/pinned-key-mismatch-refused",
                    family: "tls",
                    .skipped,
                    reason: "the client does not declare pinning"
                ),
            ],
            profile: "Adapters/x/lib-a.yaml"
        )
        let libB = result(
            "lib-b",
            "2.0",
            [
                scenario("retry/401-storm-bounded", family: "401-handling", .passed, level: "MUST"),
                scenario("retry/401-without-challenge-bounded", family: "401-handling", .passed),
                scenario("retry/insufficient-scope-not-refreshed", family: "401-handling", .passed),
                scenario(
                    "tls/valid-certificate-accepted",
                    family: "tls",
                    .skipped,
                    reason: "the client does not declare custom_ca"
                ),
                scenario(
                    "tls/pinned-key-mismatch-refused",
                    family: "tls",
                    .skipped,
                    reason: "the client does not declare pinning"
                ),
            ]
        )
        return [libA, libB]
    }

    static func result(
        _ name: String,
        _ version: String,
        _ scenarios: [ScenarioRecord],
        profile: String? = nil
    )
        -> ConformanceResult
    {
        ConformanceResult(
            client: ClientRecord(
                name: name,
                version: version,
                capabilities: ["concurrency"],
                refreshWindow: "1m",
                profileFile: profile
            ),
            startedAt: Date(timeIntervalSince1970: 1_700_000_000),
            milliseconds: 900,
            scenarios: scenarios
        )
    }

    /// A scenario record; one that did not pass failed a check of its level on request #2.
    static func scenario(
        _ id: String,
        family: String? = nil,
        _ verdict: VerdictRecord,
        level: String = "SHOULD",
        reason: String? = nil,
        file: String? = nil,
        timeline: [String]? = ["t=+0s  step 1: login password → success (200)", ">   t=+0s  #1 POST /token → 200"]
    ) -> ScenarioRecord {
        let failing = verdict.isFailure || verdict == .error
        return ScenarioRecord(
            id: id,
            title: "title of \(id)",
            area: String(id.prefix { $0 != "/" }),
            family: family,
            level: level,
            spec: ["RFC 6749"],
            file: file,
            verdict: verdict,
            reason: reason,
            milliseconds: 12,
            checks: [
                CheckRecord(
                    kind: "count",
                    statement: "number of token requests (grant refresh_token) is at most 1",
                    passed: !failing,
                    level: Level(rawValue: level),
                    expected: "at most 1",
                    observed: failing ? "2 (#2 t=+0s, #3 t=+0s)" : "1",
                    evidence: failing ? [2, 3] : []
                )
            ],
            timeline: verdict == .skipped ? nil : timeline
        )
    }

    /// The lines of `page` from the heading `from` up to the heading `to`.
    /// The text of the page at `path`, or "" when there is none.
    static func page(_ pages: [ClientsTable.Page], _ path: String) -> String {
        pages.first { $0.path == path }?.text ?? ""
    }
}
