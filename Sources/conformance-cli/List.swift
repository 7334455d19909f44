import ArgumentParser
import Foundation
import OAuthConformance

/// `conformance list`: the scenarios, optionally filtered, as text or JSON.
struct ListScenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract:
            "List scenarios, optionally only those of an area, tag or level, as text, JSON or the Markdown pages of docs/checks.md; or the deliberate bugs of --defect."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown
    }

    @Argument(help: "Scenario files or directories, searched for .yaml and .yml files.")
    var paths: [String] = ["Scenarios"]

    @Option(help: "Only scenarios of this area.")
    var area: Area?

    @Option(help: "Only scenarios with this tag.")
    var tag: String?

    @Option(help: "Only scenarios of this level.")
    var level: Level?

    @Option(
        help:
            "text: one line per scenario; json: an array of objects for scripts; markdown: docs/checks.md and its pages, written to --pages."
    )
    var format: Format = .text

    @Option(
        help: ArgumentHelp(
            "With --format markdown, which needs it: write the first page to <folder>.md and a page per behaviour family to <folder>/<family>.md, and remove the other .md files in <folder>. A family page links to the clients' verdicts when clients/families/<family>.md is beside <folder>, as docs/clients/ is beside docs/checks/. The repository's pages: --pages docs/checks.",
            valueName: "folder"
        )
    )
    var pages: String?

    @Flag(help: "List the reference client's deliberately broken variants instead, the names `run --defect` takes.")
    var defects = false

    func validate() throws {
        if format == .markdown, pages == nil {
            throw ValidationError(
                "--format markdown writes a page per behaviour family: name their folder with --pages (the repository's: --pages docs/checks)"
            )
        }
        if pages != nil, format != .markdown {
            throw ValidationError("--pages writes the Markdown pages; it needs --format markdown")
        }
    }

    func run() throws {
        guard !defects else {
            let width = DefectiveClient.catalogue.map(\.name.count).max() ?? 0
            for defect in DefectiveClient.catalogue {
                print("\(defect.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(defect.bug)")
            }
            return
        }
        let selected = try ScenarioInput.load(paths, doing: "nothing was listed").filter { scenario in
            (area == nil || scenario.area == area) && (level == nil || scenario.level == level)
                && (tag.map(scenario.tags.contains) ?? true)
        }
        switch format {
        case .text:
            let width = selected.map(\.id.count).max() ?? 0
            for scenario in selected {
                let id = scenario.id.padding(toLength: width, withPad: " ", startingAt: 0)
                let level = scenario.level.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
                print("\(id)  \(level)  \(scenario.title)")
            }
        case .markdown:
            try writePages(selected, to: pages ?? "")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(selected.map(Listing.init)), as: UTF8.self))
        }
    }

    /// `FOLDER.md` and `FOLDER/<family>.md`, then the removal of the pages in FOLDER that were
    /// not written, so a family that lost its scenarios leaves no stale page behind.
    private func writePages(_ scenarios: [Scenario], to folder: String) throws {
        let folderURL = URL(fileURLWithPath: folder).standardizedFileURL
        let parent = folderURL.deletingLastPathComponent()
        let clientFamilies = parent.appendingPathComponent("clients/families")
        let withClientResults = Set(
            (BehaviourFamily.all + [.other]).map(\.id).filter { id in
                FileManager.default.fileExists(atPath: clientFamilies.appendingPathComponent("\(id).md").path)
            }
        )
        let rendered = ChecksTable.pages(
            scenarios,
            name: folderURL.lastPathComponent,
            familiesWithClientResults: withClientResults
        )
        try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: true)
        for page in rendered {
            try ReportFile.write(page.text, to: parent.appendingPathComponent(page.path).path)
        }
        let written = Set(rendered.dropFirst().map { URL(fileURLWithPath: $0.path).lastPathComponent })
        let stale = try FileManager.default.contentsOfDirectory(atPath: folderURL.path)
            .filter { $0.hasSuffix(".md") && !written.contains($0) }.sorted()
        for name in stale {
            try FileManager.default.removeItem(at: folderURL.appendingPathComponent(name))
        }
        let shown = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let removed = stale.isEmpty ? "" : "; removed \(stale.joined(separator: ", "))"
        Console.out("Checks pages: \(shown).md and \(rendered.count - 1) in \(shown)/\(removed)")
        try writeCheckReference(besides: parent)
    }

    /// The table of checks in the scenario language's reference, when its page is beside the
    /// checks' pages (docs/scenario-language/expect.md beside docs/checks/): written from the
    /// checks' own documentation, as a new check is documented in its file.
    private func writeCheckReference(besides parent: URL) throws {
        let page = parent.appendingPathComponent("scenario-language/expect.md")
        guard let text = try? String(contentsOf: page, encoding: .utf8) else { return }
        guard let rewritten = CheckReferenceTable.rewriting(text) else {
            throw ValidationError("\(page.path) has lost the markers of its table of checks")
        }
        guard rewritten != text else { return }
        try ReportFile.write(rewritten, to: page.path)
        Console.out("Table of checks: \(page.path)")
    }

    /// One scenario as `--format json` shows it.
    struct Listing: Encodable {
        let id, title, area, level: String
        let tags, spec, requires: [String]
        let parameters: [String: String]
        let family, file: String?

        init(_ scenario: Scenario) {
            id = scenario.id
            title = scenario.title
            area = scenario.area.rawValue
            family = scenario.family?.id
            level = scenario.level.rawValue
            tags = scenario.tags
            spec = scenario.spec
            requires = scenario.requiredCapabilities.map(\.rawValue)
            parameters = scenario.parameters
            file = scenario.file
        }
    }
}
