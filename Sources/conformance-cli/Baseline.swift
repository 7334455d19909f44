import ArgumentParser
import Foundation
import OAuthConformance

/// `conformance baseline`: a profile's `expected_failures` rewritten from a run, as PHPStan's
/// `--generate-baseline` or detekt's `--create-baseline` do for their findings, so that a
/// library adopting the suite has a green build on day one and CI fails only on regressions
/// and on expected failures that started passing.
struct Baseline: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Update a client profile's expected_failures from a run: add what failed, drop what passes.",
        discussion: """
            A failure no entry lists is added, its reason the failed checks' level and statement (replace it with the \
            known gap); an entry whose scenarios all pass is dropped; a pattern (*) that covers passing scenarios is \
            narrowed to those that still fail. Entries the run cannot judge (not run, skipped, inconclusive, errors) and \
            every reason already written are kept, and so is the rest of the file, comments included. \
            Exit status: 0 the profile is up to date, 2 a file could not be used.
            """
    )

    @Argument(help: ArgumentHelp("The client profile the run used (--client).", valueName: "profile.yaml"))
    var profile: String

    @Argument(
        help: ArgumentHelp(
            "The run's JSON result (conformance run --json); the shards of one run together.",
            valueName: "result.json"
        )
    )
    var results: [String]

    func run() throws {
        let loaded = AdapterProfileLoader.load(path: profile)
        for diagnostic in loaded.diagnostics { Console.error(diagnostic.description) }
        guard let current = loaded.profile, !loaded.hasErrors else {
            Console.error("conformance: the client profile \(profile) has errors; it was left unchanged")
            throw ExitCode.inputError
        }
        let result = try runOfThisProfile()
        let baseline = ExpectedFailuresBaseline(current: current.expectedFailures, run: result)
        for scenario in baseline.errors {
            Console.error(
                "conformance: warning: \(scenario) ended in an error, which expected_failures cannot hold: fix what stopped it"
            )
        }
        guard baseline.changesProfile else {
            Console.out("\(profile): expected_failures already agree with the run (\(baseline.updated.count) entries)")
            return
        }
        do {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: profile)), as: UTF8.self)
            try ReportFile.write(try ExpectedFailuresEditor.rewrite(text, file: profile, as: baseline), to: profile)
        } catch {
            Console.error("conformance: \(error)")
            throw ExitCode.inputError
        }
        Console.out("\(profile): expected_failures updated from \(results.joined(separator: ", ")):")
        for change in baseline.changeLines { Console.out("  " + change) }
    }

    /// The one result the files hold, refused when it is not a whole run of this profile's client.
    private func runOfThisProfile() throws -> ConformanceResult {
        let merged = try ResultInput.load(results)
        guard merged.count == 1, let result = merged.first else {
            Console.error(
                "conformance: these results are of \(merged.count) clients (\(merged.map(\.client.label).joined(separator: ", "))); give one client's"
            )
            throw ExitCode.inputError
        }
        let ranWith = result.client.profileFile
        guard let ranWith,
            URL(fileURLWithPath: ranWith).lastPathComponent == URL(fileURLWithPath: profile).lastPathComponent
        else {
            Console.error(
                "conformance: the result is of \(result.client.label) run with \(ranWith ?? "the built-in reference client"), not with \(profile)"
            )
            throw ExitCode.inputError
        }
        guard !result.interrupted else {
            Console.error(
                "conformance: the run was interrupted, so its unfinished scenarios say nothing; run it to the end"
            )
            throw ExitCode.inputError
        }
        return result
    }
}
