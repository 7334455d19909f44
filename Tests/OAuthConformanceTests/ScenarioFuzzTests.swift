import Foundation
import Testing

@testable import OAuthConformance

/// Bad input never crashes or hangs the loader: thousands of mutated scenario files, from a
/// fixed seed so a failure repeats, each end in diagnostics or valid scenarios within a bound.
@Suite("The scenario loader survives fuzzing")
struct ScenarioFuzzTests {
    /// SplitMix64: small, fast and the same on every platform, so a failing input can be replayed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One way of breaking a file, as bytes in and bytes out.
    struct Mutation: Sendable {
        let name: String
        let apply: @Sendable (_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8]
    }

    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static let mutations: [Mutation] = [
        Mutation(name: "byte flips") { bytes, random in
            var bytes = bytes
            for _ in 0..<Int.random(in: 1...8, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            return bytes
        },
        Mutation(name: "truncation") { bytes, random in
            Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
        },
        Mutation(name: "key/value swap") { bytes, random in
            var lines = lines(bytes)
            guard let index = lines.indices.filter({ lines[$0].contains(": ") }).randomElement(using: &random) else {
                return bytes
            }
            let indent = lines[index].prefix { $0 == " " || $0 == "-" }
            let parts = lines[index].dropFirst(indent.count).split(separator: ":", maxSplits: 1)
            if parts.count == 2 {
                lines[index] = "\(indent)\(parts[1].trimmingCharacters(in: .whitespaces)): \(parts[0])"
            }
            return Array(lines.joined(separator: "\n").utf8)
        },
        Mutation(name: "huge numbers") { bytes, random in
            let huge = [
                "99999999999999999999999999999", "-9223372036854775809", "1e400", "9223372036854775807s",
                "0x7fffffffffffffffff", ".nan",
            ]
            var text = String(decoding: bytes, as: UTF8.self)
            guard let position = text.indices.filter({ text[$0].isNumber }).randomElement(using: &random) else {
                return bytes
            }
            text.replaceSubrange(position...position, with: huge.randomElement(using: &random)!)
            return Array(text.utf8)
        },
        Mutation(name: "deep nesting") { bytes, random in
            let depth = [100, 999, 1001, 10_000].randomElement(using: &random)!
            let nested = [
                String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
                String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth),
                String(repeating: "- ", count: depth) + "x",
                // Indentation costs depth² bytes; past the 1 MiB limit the loader refuses the file unread.
                (0..<min(depth, 1_500)).map { String(repeating: " ", count: $0) + "a:" }.joined(separator: "\n") + " 1",
            ].randomElement(using: &random)!
            var lines = lines(bytes)
            lines.insert("steps: " + nested, at: Int.random(in: 0...lines.count, using: &random))
            return Array(lines.joined(separator: "\n").utf8)
        },
        Mutation(name: "binary junk") { _, random in
            (0..<Int.random(in: 0...2048, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        },
        Mutation(name: "invalid UTF-8") { bytes, random in
            var bytes = bytes
            let junk: [[UInt8]] = [[0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80], [0x00]]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes.insert(
                    contentsOf: junk.randomElement(using: &random)!,
                    at: Int.random(in: 0...bytes.count, using: &random)
                )
            }
            return bytes
        },
        Mutation(name: "YAML features") { bytes, random in
            let features = [
                "---\n", "...\n", "%YAML 1.1\n", "!!binary aGVsbG8=\n", "? [a, b]\n: c\n", "x: &a [*a]\n",
                "x: *missing\n",
                "x: !!python/object:os.system ls\n", "\t- tab\n", "x: \"\\u00\"\n", "matrix: { code: [a, b] }\n",
                "id: \"{nope}\"\n",
            ]
            var lines = lines(bytes)
            lines.insert(features.randomElement(using: &random)!, at: Int.random(in: 0...lines.count, using: &random))
            return Array(lines.joined(separator: "\n").utf8)
        },
    ]

    /// "Billion laughs": each level refers to the previous one ten times.
    static let aliasBomb =
        (["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        + (1...9).map { level in
            "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]"
        }).joined(separator: "\n")
        + "\nconformance: 1\nid: x\ntitle: t\narea: retry\nlevel: MUST\nsteps: *a9\nexpect: *a9\n"

    /// Inputs that have broken YAML loaders before, tried every run.
    static let classics: [String] = [
        "", "\u{0}", "[", "{", "- - - -", ":", "? ", "&a", "*a", "!<tag:x> 1", String(repeating: "[", count: 100_000),
        aliasBomb,
        "matrix: { " + (0..<20).map { "p\($0): [a, b]" }.joined(separator: ", ") + " }\nid: \""
            + (0..<20).map { "{p\($0)}" }.joined() + "\"\n",
    ]

    /// Real time one input may take. Generous for a loaded CI machine; a hang is far beyond it.
    static let perInputLimit = Duration.seconds(5)

    static func decodeWithinLimit(_ bytes: [UInt8]) async -> (diagnostics: Int, scenarios: Int)? {
        await withDeadline(perInputLimit) {
            let collector = DiagnosticCollector()
            let scenarios = ScenarioLoader.decode(
                String(decoding: bytes, as: UTF8.self),
                file: "fuzz.yaml",
                diagnostics: collector
            )
            return (collector.diagnostics.count, scenarios.count)
        }
    }

    @Test(
        "thousands of mutated built-in scenarios each end in diagnostics or scenarios, in bounded time",
        .timeLimit(.minutes(2))
    )
    func mutatedFiles() async throws {
        let seeds = try PackageFiles.builtInScenarioFiles.map { Array(try Data(contentsOf: $0)) }
        try #require(!seeds.isEmpty)
        var random = SeededGenerator(state: 20_261_121)
        var inputs = Self.classics.map { (name: "classic", bytes: Array($0.utf8)) }
        for round in 0..<2_000 {
            let mutation = Self.mutations[round % Self.mutations.count]
            var bytes = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            // A few mutations on top of one another reach states a single one does not.
            for _ in 0..<Int.random(in: 1...3, using: &random) { bytes = mutation.apply(bytes, &random) }
            inputs.append((mutation.name, bytes))
        }
        for (index, input) in inputs.enumerated() {
            guard let outcome = await Self.decodeWithinLimit(input.bytes) else {
                Issue.record(
                    "input \(index) (\(input.name)) did not finish within \(Self.perInputLimit): \(String(decoding: input.bytes.prefix(200), as: UTF8.self))"
                )
                return
            }
            // Parsing is CPU-bound; let the tests running beside this one have a turn.
            await Task.yield()
            #expect(
                outcome.diagnostics > 0 || outcome.scenarios > 0,
                "input \(index) (\(input.name)) ended in neither diagnostics nor scenarios"
            )
        }
    }

    @Test("deep nesting is refused with a diagnostic that says so")
    func deepNesting() async throws {
        let deep =
            "conformance: 1\nsteps: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            + "\n"
        let outcome = await withDeadline(Self.perInputLimit) { Fixtures.diagnostics(deep) }
        let diagnostics = try #require(outcome, "deep nesting did not finish")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.contains("nest") == true, "\(diagnostics.map(\.description))")
    }

    @Test("a document whose aliases expand beyond reason is refused, not walked")
    func aliasBomb() async throws {
        let outcome = await withDeadline(Self.perInputLimit) { Fixtures.diagnostics(Self.aliasBomb) }
        let diagnostics = try #require(outcome, "the alias bomb did not finish")
        #expect(
            diagnostics.map(\.message) == [
                "the scenario holds more than 50000 YAML values (aliases expanded); write it out plainly"
            ]
        )
    }

    @Test("invalid UTF-8 in a file on disk is read with replacement characters and reported, not a crash")
    func invalidUTF8OnDisk() throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken.yaml")
        try Data([0x63, 0x6F, 0x6E, 0x66, 0xFF, 0xFE, 0x3A, 0x20, 0x31, 0x0A]).write(to: file)
        let loaded = ScenarioLoader.load(paths: [file.path])
        #expect(loaded.hasErrors)
        #expect(loaded.scenarios.isEmpty)
    }
}
