import ArgumentParser
import Foundation
import OAuthConformance

/// `conformance list`: the scenarios, optionally filtered, as text or JSON.
struct ListScenarios: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List scenarios, optionally only those of an area, tag or level; or the deliberate bugs of --defect."
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
            "text: one line per scenario; json: an array of objects for scripts; markdown: the table of docs/checks.md."
    )
    var format: Format = .text

    @Flag(help: "List the reference client's deliberately broken variants instead, the names `run --defect` takes.")
    var defects = false

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
            print(ChecksTable.markdown(selected), terminator: "")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(selected.map(Listing.init)), as: UTF8.self))
        }
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
