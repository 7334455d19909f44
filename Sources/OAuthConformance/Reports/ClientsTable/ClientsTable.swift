/// The public conformance table of OAuth client libraries (docs/clients.md and the pages in
/// docs/clients/): on the first page a row per client, a column per behaviour family, each cell
/// pass, fail or not supported with its counts; a page per library on what it does wrong, with a
/// timeline as evidence; a page per family with the verdict of every scenario for every client.
///
/// The pages are committed, and a test compares them with a fresh render, so they hold nothing
/// that differs between two runs of the same clients on one day: no times, ports or temporary
/// paths; the day of the run only.
public struct ClientsTable: Sendable {
    /// Where the repository root is, seen from the first page: scenario files and profiles are
    /// linked relative to it. `../` for docs/clients.md; nil for no links.
    public var repositoryRoot: String?
    /// Most characters of the evidence shown for one library.
    public var evidenceLimit: Int

    public init(repositoryRoot: String? = "../", evidenceLimit: Int = 6 * 1024) {
        self.repositoryRoot = repositoryRoot
        self.evidenceLimit = evidenceLimit
    }

    /// One page, at a path relative to the folder of the first page.
    public struct Page: Sendable, Equatable {
        public var path: String
        public var text: String
    }

    /// Every page for these clients, in the order given (`ResultMerge.merge` keeps the order of
    /// the files): first the table, at `name`; then, in the folder named after it (`clients/`
    /// for `clients.md`), a page per client and, under `families/`, a page per family.
    public func pages(_ results: [ConformanceResult], name: String = "clients.md") -> [Page] {
        let folder = String(name.dropLast(name.hasSuffix(".md") ? 3 : 0)) + "/"
        let families = Self.families(shownFor: results)
        let clientPages = results.map { folder + Self.pageName(of: $0) }
        let familyPages = families.map { folder + "families/\($0.id).md" }

        var lines = ["# \(Self.title)", ""]
        lines += introduction(results)
        lines.append("| Client | " + families.map { MarkdownText.inline($0.title) }.joined(separator: " | ") + " |")
        lines.append("|---|" + String(repeating: "---|", count: families.count))
        for (result, clientPage) in zip(results, clientPages) {
            let cells = zip(families, familyPages).map { family, page in
                "[\(Self.tally(of: family, in: result).text)](\(page))"
            }
            lines.append(
                "| [\(MarkdownText.inline(result.client.label))](\(clientPage)) | \(cells.joined(separator: " | ")) |"
            )
        }
        lines += modernFlows(results, clientPages: clientPages)
        lines += ["", "## \(Self.librariesHeading)", ""]
        for (result, clientPage) in zip(results, clientPages) {
            lines.append("- [\(MarkdownText.inline(result.client.label))](\(clientPage)): \(result.tally)")
        }
        lines += ["", "## \(Self.familiesHeading)", ""]
        for (family, page) in zip(families, familyPages) {
            lines.append("- [\(MarkdownText.inline(family.title))](\(page)): \(MarkdownText.inline(family.summary))")
        }
        lines.append("")

        var pages = [Page(path: name, text: lines.joined(separator: "\n"))]
        for (result, page) in zip(results, clientPages) {
            let section = LibrarySection(
                result: result,
                repositoryRoot: repositoryRoot.map { "../" + $0 },
                evidenceLimit: evidenceLimit
            )
            pages.append(Page(path: page, text: (backLink(to: name, depth: 1) + section.lines).joined(separator: "\n")))
        }
        for (family, page) in zip(families, familyPages) {
            pages.append(
                Page(
                    path: page,
                    text: (backLink(to: name, depth: 2) + familySection(family, results: results)).joined(
                        separator: "\n"
                    )
                )
            )
        }
        return pages
    }

    /// One cell: how the client did on the family's scenarios.
    static func tally(of family: BehaviourFamily, in result: ConformanceResult) -> FamilyTally {
        FamilyTally(
            result.scenarios.filter { BehaviourFamily.family(of: $0) == family },
            leftToTheApplication: result.client.applicationPart?.contains { $0.family == family.id } ?? false
        )
    }

    /// The flows the field is adopting now, each with the clients that declare it and how they
    /// did on its family: what someone choosing a library for one of them looks up first.
    private func modernFlows(_ results: [ConformanceResult], clientPages: [String]) -> [String] {
        var lines = ["", "## \(Self.modernFlowsHeading)", ""]
        for flow in ModernFlow.all {
            let family = BehaviourFamily.named(flow.family) ?? .other
            let clients = zip(results, clientPages).filter { result, _ in
                !Set(flow.capabilities).isDisjoint(with: result.client.capabilities)
            }.map { result, page in
                "[\(MarkdownText.inline(result.client.label))](\(page)) \(Self.tally(of: family, in: result).text)"
            }
            lines.append(
                "- **\(flow.title)** (\(MarkdownText.inline(family.title))): "
                    + (clients.isEmpty ? "no client here implements it" : clients.joined(separator: "; "))
            )
        }
        return lines
    }

    /// `python-authlib.md`: named as the client's committed result is.
    static func pageName(of result: ConformanceResult) -> String {
        String(ClientsTableResults.fileName(for: result).dropLast(".json".count)) + ".md"
    }

    private static let title = "OAuth client libraries: what each gets right"
    private static let librariesHeading = "What each library gets wrong"
    private static let modernFlowsHeading = "Modern flows"
    private static let familiesHeading = "The scenarios of each family"

    private func introduction(_ results: [ConformanceResult]) -> [String] {
        let scenarioCount = Set(results.flatMap { $0.scenarios.map(\.id) }).count
        let harness = Set(results.map(\.harnessVersion)).sorted().joined(separator: ", ")
        let days = results.map(\.startedAt).filter { $0.timeIntervalSince1970 > 0 }
        let runDay =
            days.max().map {
                " Run on \($0.formatted(.iso8601.year().month().day())) (the latest of its clients' runs)."
            } ?? ""
        return [
            "<!-- Generated by scripts/clients-table (conformance report --clients-table) from the JSON results of "
                + "the built-in suite; do not edit it by hand. -->",
            "",
            "\(results.count) client\(results.count == 1 ? "" : "s"), \(scenarioCount) scenarios, harness \(harness).\(runDay) "
                + "Each client's name gives the version of its library that ran. "
                + "A row per client, a column per behaviour family. A cell is **pass** when every scenario of the "
                + "family that the client ran passed, **fail** when one failed (whether or not the client's profile "
                + "expects it), with the strictest level a scenario failed at (MUST, SHOULD or POLICY), "
                + "**application's part** when the library leaves the family to the application (the adapter does "
                + "what the library's documentation shows, so the counts judge that code as much as the library), "
                + "and **not supported** when the client skipped them all for want of a capability; "
                + "`5/8` counts the scenarios passed of those run, skips apart. A cell opens the family's "
                + "scenarios and their verdicts; a client's name opens what it does wrong, with a request timeline "
                + "as evidence, and the reasons its profile gives where a probe confirms them: a small program that "
                + "drives the library against a throwaway server, without the harness.",
            "",
        ]
    }

    /// The first lines of a page `depth` folders below the table: a link back to it.
    private func backLink(to name: String, depth: Int) -> [String] {
        ["[← \(Self.title)](\(String(repeating: "../", count: depth))\(name))", ""]
    }

    private func familySection(_ family: BehaviourFamily, results: [ConformanceResult]) -> [String] {
        var lines = [
            "# \(MarkdownText.inline(family.title))", "", MarkdownText.inline(family.summary), "",
            "Every scenario of the family with its verdict per client: PASS; FAIL; XFAIL, a failure the client's "
                + "profile lists as expected; WARN, a failure below the run's `--fail-on` level; SKIP, the client "
                + "lacks a capability the scenario needs; INCONC, the client never reached what the scenario is "
                + "about; ERROR, the run could not judge it. `conformance explain ID` tells what a scenario checks.",
            "",
        ]
        lines.append(
            "| Scenario | Level | " + results.map { MarkdownText.inline($0.client.label) }.joined(separator: " | ")
                + " |"
        )
        lines.append("|---|---|" + String(repeating: "---|", count: results.count))
        var rows: [String: ScenarioRecord] = [:]
        for scenario in results.flatMap(\.scenarios) where BehaviourFamily.family(of: scenario) == family {
            rows[scenario.id] = rows[scenario.id] ?? scenario
        }
        for (id, scenario) in rows.sorted(by: { $0.key < $1.key }) {
            let verdicts = results.map { result in
                result.scenarios.first { $0.id == id }?.verdict.label ?? "—"
            }
            lines.append(
                "| \(scenarioLink(scenario, depth: 2)) | \(scenario.level) | \(verdicts.joined(separator: " | ")) |"
            )
        }
        return lines + [""]
    }

    /// `` [`refresh/x`](../../../Scenarios/refresh/x.yaml) ``, from a page `depth` folders below the
    /// table: linked when the file is part of the repository.
    private func scenarioLink(_ scenario: ScenarioRecord, depth: Int) -> String {
        let id = "`\(scenario.id)`"
        guard let file = scenario.file.flatMap(Self.repositoryPath(ofScenarioFile:)), let repositoryRoot else {
            return id
        }
        return "[\(id)](\(String(repeating: "../", count: depth))\(repositoryRoot)\(file))"
    }

    /// The path of a built-in scenario file inside the repository, however the run named it
    /// (`Scenarios/…` from the command line, an absolute path from a test); nil for other files.
    static func repositoryPath(ofScenarioFile file: String) -> String? {
        if file.hasPrefix("Scenarios/") { return file }
        guard let range = file.ranges(of: "/Scenarios/").last else { return nil }
        return String(file[file.index(after: range.lowerBound)...])
    }

    /// The built-in families, and a column for scenarios that name none when a result has any.
    private static func families(shownFor results: [ConformanceResult]) -> [BehaviourFamily] {
        let unclaimed = results.contains { $0.scenarios.contains { BehaviourFamily.family(of: $0) == .other } }
        return BehaviourFamily.all + (unclaimed ? [.other] : [])
    }
}
