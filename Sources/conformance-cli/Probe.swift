import ArgumentParser
import Foundation
import OAuthConformance

/// `conformance probe`: the probes a profile names for its expected failures, run without the
/// harness, so that every reason the public table publishes about a library is confirmed by a
/// program that drives the library against a throwaway server of its own.
struct Probe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the probes a client profile names for its expected failures, and say which claims they confirm.",
        discussion: """
            Each distinct probe (expected_failures[].probe) runs once, from the profile's folder, and confirms its \
            claim when it exits 0 with a last line "confirmed: …". With --require-probes, an expected failure that \
            names no probe is a problem too. Exit status: 0 every probe confirmed its claim, 1 one did not (or a \
            claim has no probe, with --require-probes), 2 the profile could not be used.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The client profile.", valueName: "profile.yaml"))
    var client: String

    @Flag(help: "Count an expected failure without a probe as unconfirmed.")
    var requireProbes = false

    @Option(help: ArgumentHelp("The longest one probe may run (e.g. 60s).", valueName: "duration"))
    var limit: String = "60s"

    func run() async throws {
        let loaded = AdapterProfileLoader.load(path: client)
        for diagnostic in loaded.diagnostics { Console.error(diagnostic.description) }
        guard let profile = loaded.profile, !loaded.hasErrors else {
            Console.error("conformance: the client profile \(client) has errors; no probe ran")
            throw ExitCode.inputError
        }
        guard case .success(let limit) = DurationText.parse(limit), limit > .zero else {
            Console.error("conformance: --limit \(limit) is not a duration such as 60s")
            throw ExitCode.inputError
        }
        let claims = ProbedClaims(profile.expectedFailures)
        var unconfirmed = 0
        for (probe, entries) in claims.byProbe {
            let run = await ProbeRun.run(probe, limit: limit)
            Console.out("probe \(probe.text)")
            for entry in entries { Console.out("  for \(entry.scenario): \(entry.reason)") }
            for line in run.output { Console.out("  | \(line)") }
            switch run.outcome {
            case .confirmed(let claim):
                Console.out("  ✓ confirmed: \(claim)")
            case .notConfirmed(let problem):
                unconfirmed += 1
                Console.out("  ✗ not confirmed: \(problem)")
            case .notRun(let problem):
                unconfirmed += 1
                Console.out("  ✗ not run: \(problem)")
            }
        }
        for entry in claims.unprobed {
            Console.out("no probe for \(entry.scenario): \(entry.reason)")
        }
        let missing = requireProbes ? claims.unprobed.count : 0
        Console.out(
            "\(claims.byProbe.count) probe\(claims.byProbe.count == 1 ? "" : "s"), \(claims.byProbe.count - unconfirmed) confirmed, "
                + "\(unconfirmed) not; \(claims.probedEntryCount) of \(profile.expectedFailures.count) expected failures probed"
        )
        if unconfirmed + missing > 0 { throw ExitCode.failure }
    }
}
