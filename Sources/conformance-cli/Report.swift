import ArgumentParser
import OAuthConformance

/// `conformance report`: results from several runs (one per client library, or the shards of
/// one run) merged into one HTML conformance matrix, and on request the other reports again.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge JSON results into an HTML conformance matrix (clients × scenarios).",
        discussion: """
            Results of the same client (name, version and profile) are the shards of one run and are merged; \
            different clients become columns. --junit and --json write the merged result of one client. \
            Exit status: 0 the reports were written, 2 a result file or an output could not be used.
            """
    )

    @Argument(help: "Result files written by `conformance run --json`.")
    var results: [String]

    @Option(help: "Where to write the HTML conformance matrix.")
    var html = "Reports/conformance.html"

    @Option(help: "Also write the merged JUnit XML report here (one client only).")
    var junit: String?

    @Option(help: "Also write the merged JSON result here (one client only).")
    var json: String?

    @Option(help: "Also write a Markdown summary here, e.g. \"$GITHUB_STEP_SUMMARY\".")
    var markdown: String?

    @Option(
        help: """
            Also write the conformance table of client libraries here (Markdown, as docs/clients.md): \
            a row per client, a column per behaviour family.
            """
    )
    var clientsTable: String?

    @Option(
        help: """
            Also write into this folder, per client, the part of its result the clients table shows \
            (verdicts, reasons, failed checks, the quoted timeline): what docs/clients/results holds.
            """
    )
    var clientsTableResults: String?

    func run() throws {
        let merged = try ResultInput.load(results)

        let outputs = ReportOutputs(
            junit: junit,
            json: json,
            markdown: markdown,
            html: html,
            clientsTable: clientsTable,
            clientsTableResults: clientsTableResults
        )
        if outputs.needsSingleClient, merged.count != 1 {
            Console.error(
                "conformance: --junit and --json take the results of one client; these are \(merged.count): \(merged.map(\.client.label).joined(separator: ", "))"
            )
            throw ExitCode.inputError
        }
        for result in merged {
            Console.out("\(result.client.label): \(result.scenarios.count) scenarios, \(result.tally)")
        }
        guard outputs.write(merged) else { throw ExitCode.inputError }
    }
}
