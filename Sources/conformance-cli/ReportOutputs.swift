import Foundation
import OAuthConformance

/// The report files a command was asked for, written together; one that cannot be written is
/// reported and does not stop the others.
struct ReportOutputs {
    var junit: String?
    var json: String?
    var markdown: String?
    var html: String?
    /// The Markdown table of client libraries by behaviour family (docs/clients.md).
    var clientsTable: String?
    /// A folder for the results the clients table is rendered from, trimmed to what it shows
    /// (docs/clients/results, committed so that a test renders the table without any library).
    var clientsTableResults: String?

    /// JUnit XML and the JSON result describe one client; the others take any number.
    var needsSingleClient: Bool { junit != nil || json != nil }

    /// Writes each report asked for and says where; false when one could not be written.
    func write(_ results: [ConformanceResult]) -> Bool {
        var written = true
        func attempt(_ kind: String, _ path: String?, _ render: () -> RenderedReport) {
            guard let path else { return }
            do {
                try ReportFile.write(render(), to: path)
                Console.out("\(kind): \(path)")
            } catch {
                Console.error("conformance: \(kind) not written to \(path): \(error.localizedDescription)")
                written = false
            }
        }
        if let result = results.first, results.count == 1 {
            attempt("JUnit report", junit) {
                JUnitReport().render(
                    result,
                    attachmentDirectory: junit.map(JUnitReport.attachmentDirectory(forReportAt:))
                )
            }
            attempt("JSON result", json) { RenderedReport(text: JSONReport.render(result)) }
        }
        attempt("Markdown summary", markdown) { RenderedReport(text: MarkdownReport().render(results)) }
        attempt("HTML matrix", html) { RenderedReport(text: MatrixPage().render(results)) }
        if let clientsTable {
            let main = URL(fileURLWithPath: clientsTable)
            let folder = main.deletingLastPathComponent()
            let table = ClientsTable(repositoryRoot: Self.workingDirectory(seenFrom: clientsTable))
            let pages = table.pages(results, name: main.lastPathComponent)
            attempt("Clients table", clientsTable) { RenderedReport(text: pages[0].text) }
            // A page per client and per family, in the folder named after the table.
            let pagesFolder = folder.appendingPathComponent(main.deletingPathExtension().lastPathComponent).relativePath
            do {
                for page in pages.dropFirst() {
                    try ReportFile.write(
                        RenderedReport(text: page.text),
                        to: folder.appendingPathComponent(page.path).relativePath
                    )
                }
                Console.out("Clients table pages: \(pages.count - 1) in \(pagesFolder)/")
            } catch {
                Console.error(
                    "conformance: clients table pages not written to \(pagesFolder)/: \(error.localizedDescription)"
                )
                written = false
            }
        }
        for result in results {
            let name = ClientsTableResults.fileName(for: result)
            attempt(
                "Clients table result",
                clientsTableResults.map { URL(fileURLWithPath: $0).appendingPathComponent(name).relativePath }
            ) {
                RenderedReport(text: JSONReport.render(ClientsTableResults.trimmed(result)))
            }
        }
        return written
    }

    /// The working directory (the repository root, where the scenario paths of a run start) as a
    /// relative link from the file at `path`: `../` from `docs/clients.md`.
    static func workingDirectory(seenFrom path: String) -> String {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.pathComponents
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.pathComponents
        let shared = zip(current, folder).prefix { $0 == $1 }.count
        let up = Array(repeating: "..", count: folder.count - shared)
        let down = current.dropFirst(shared)
        return (up + down).map { $0 + "/" }.joined()
    }
}

extension Console {
    /// A line on standard output, unbuffered, so a log shows progress as it happens and a
    /// run stopped by a signal loses nothing it printed.
    static func out(_ line: String) {
        write(line + "\n", to: STDOUT_FILENO)
    }
}
