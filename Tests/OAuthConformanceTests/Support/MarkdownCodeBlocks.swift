import Foundation
import Testing

/// The fenced code blocks of a Markdown page, as a reader copies them.
struct MarkdownCodeBlock: CustomTestStringConvertible, Sendable {
    /// The page, relative to the package root.
    let page: String
    /// The line of the opening fence.
    let line: Int
    /// What follows the opening fence: the language, and for a block that is a whole file of
    /// the repository, `file=PATH` (`` ```yaml file=Examples/python-library/.gitlab-ci.yml ``).
    let info: String
    let text: String

    var language: String { info.split(separator: " ").first.map(String.init) ?? "" }

    /// The repository file the block shows in full, when its info string names one.
    var file: String? {
        info.split(separator: " ").first { $0.hasPrefix("file=") }.map { String($0.dropFirst("file=".count)) }
    }

    var testDescription: String { "\(page):\(line) (\(info.isEmpty ? "no language" : info))" }

    static func blocks(in page: String) throws -> [MarkdownCodeBlock] {
        let lines = try String(contentsOf: PackageFiles.root.appendingPathComponent(page), encoding: .utf8)
            .components(separatedBy: "\n")
        var blocks: [MarkdownCodeBlock] = []
        var opening: (line: Int, info: String)?
        var body: [String] = []
        for (index, line) in lines.enumerated() {
            if let open = opening {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(
                        MarkdownCodeBlock(
                            page: page,
                            line: open.line,
                            info: open.info,
                            text: body.joined(separator: "\n") + "\n"
                        )
                    )
                    opening = nil
                } else {
                    body.append(line)
                }
            } else if line.hasPrefix("```") {
                opening = (index + 1, String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces))
                body = []
            }
        }
        return blocks
    }

    /// Every page a user reads: the README and every page under docs/.
    static func allPages() throws -> [String] {
        let docs = PackageFiles.root.appendingPathComponent("docs")
        let pages = FileManager.default.enumerator(atPath: docs.path)?.compactMap { $0 as? String } ?? []
        return ["README.md"] + pages.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }
}
