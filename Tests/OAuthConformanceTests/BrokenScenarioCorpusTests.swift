import Foundation
import Testing

@testable import OAuthConformance

/// Scenario files as a careless author writes them. Each must end in `file:line:column: error:`
/// diagnostics pointing inside the file: never in a crash, a hang, or a scenario loaded anyway.
@Suite("Broken scenario files")
struct BrokenScenarioCorpusTests {
    /// One broken file. A committed one says what it must be told in `# expect: LINE:COLUMN: words` lines.
    struct BrokenFile: Sendable {
        let name: String
        let bytes: [UInt8]
        let expected: [String]
    }

    static let corpusFolder = PackageFiles.root
        .appendingPathComponent("Tests/OAuthConformanceTests/Fixtures/broken-scenarios")

    static let valid = """
        conformance: 1
        id: corpus/valid
        title: A valid scenario
        area: refresh
        level: MUST
        steps:
          - login: password
          - request: GET /resource
        expect:
          - every_step: succeeds

        """

    /// The valid scenario with its title line replaced by `lines`.
    static func valid(title lines: String) -> String {
        valid.replacingOccurrences(of: "title: A valid scenario", with: lines)
    }

    static func committedFiles() throws -> [BrokenFile] {
        let names = try FileManager.default.contentsOfDirectory(atPath: corpusFolder.path)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        return try names.map { name in
            let bytes = Array(try Data(contentsOf: corpusFolder.appendingPathComponent(name)))
            let expected = String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
                line.firstRange(of: "# expect: ").map { String(line[$0.upperBound...]) }
            }
            return BrokenFile(name: name, bytes: bytes, expected: expected)
        }
    }

    /// Files too big, too binary or too strange to commit, made afresh each run.
    static func generatedFiles() -> [BrokenFile] {
        func file(_ name: String, _ bytes: [UInt8], _ expected: String...) -> BrokenFile {
            BrokenFile(name: name, bytes: bytes, expected: expected)
        }
        func text(_ text: String) -> [UInt8] { Array(text.utf8) }
        let latin1Title = text("conformance: 1\nid: corpus/latin1\ntitle: Caf") + [0xE9] + text(" au lait\n")
        let utf16 = [0xFF, 0xFE] + Array(valid.data(using: .utf16LittleEndian)!)
        let junk = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7_919 &+ $0 >> 3) }
        let deepFlow = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let deepIndentation = (0..<1_200).map { String(repeating: " ", count: $0) + "a:" }.joined(separator: "\n")
        let longDescription = "level: MUST\ndescription: " + String(repeating: "word ", count: 200_000) + "\nare: retry"
        return [
            file("latin1-title.yaml", latin1Title, "3:11: the file is not UTF-8 text: byte 0xE9"),
            file("utf16.yaml", utf16, "1:1: the file is UTF-16 text; save it as UTF-8"),
            file(
                "truncated-utf8.yaml",
                text("conformance: 1\ntitle: \u{2603}") + [0xE2, 0x98],
                "2:9: the file is not UTF-8"
            ),
            file("binary.yaml", junk),
            file(
                "nul-on-line-3.yaml",
                text("conformance: 1\nid: corpus/nul\ntitle: a\u{0}b\n"),
                "3:9: the file holds the control character U+0000 (NUL) here"
            ),
            file(
                "raw-bell-in-title.yaml",
                text(valid(title: "title: A \u{7}valid")),
                "3:10: the file holds the control character U+0007 (BEL) here"
            ),
            file(
                "raw-c1-in-title.yaml",
                text(valid(title: "title: A \u{85}\u{9B}valid")),
                "3:10: the file holds the control character U+0085 (NEL) here (and 1 more in the file)"
            ),
            file(
                "deep-flow-nesting.yaml",
                text("conformance: 1\nsteps: " + deepFlow + "\n"),
                "2:9: the document nests deeper than 1000 levels here"
            ),
            file(
                "deep-block-nesting.yaml",
                text("steps:\n" + String(repeating: "- ", count: 2_000) + "x\n"),
                "2:1999: the document nests deeper than 1000 levels here"
            ),
            file(
                "deep-indentation.yaml",
                text(deepIndentation + " 1\n"),
                "1000:1000: the document nests deeper than 1000 levels here"
            ),
            file(
                "huge.yaml",
                text(valid + "# " + String(repeating: "padding ", count: 140_000) + "\n"),
                "1:1: the file is larger than 1 MiB"
            ),
            file(
                "just-under-the-size-limit.yaml",
                text(valid.replacingOccurrences(of: "level: MUST", with: longDescription)),
                "7:1: unknown key 'are' in a scenario; did you mean 'area'?"
            ),
            file(
                "many-keys.yaml",
                text("conformance: 1\n" + (0..<2_000).map { "k\($0): v" }.joined(separator: "\n")),
                "2:1: unknown key 'k0' in a scenario"
            ),
            file(
                "many-duplicates.yaml",
                text(valid + String(repeating: "title: again\n", count: 500)),
                "3:1: the key 'title' is given more than once in this mapping; keep one"
            ),
        ]
    }

    typealias Loaded = (file: BrokenFile, path: String, result: ScenarioLoader.Result)

    /// Loads each file by itself from disk, as `conformance validate` does, and prints the slowest.
    static func load(_ files: [BrokenFile]) throws -> [Loaded] {
        let folder = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var times: [(name: String, time: Duration)] = []
        let loaded = try files.map { file -> Loaded in
            let path = folder.appendingPathComponent(file.name).path
            try Data(file.bytes).write(to: URL(fileURLWithPath: path))
            let started = ContinuousClock.now
            let result = ScenarioLoader.load(paths: [path])
            times.append((file.name, ContinuousClock.now - started))
            return (file, path, result)
        }
        print("slowest broken files: \(times.sorted { $0.time > $1.time }.prefix(5).map { "\($0.name) \($0.time)" })")
        return loaded
    }

    @Test("the corpus holds at least 50 committed broken files, each but the empty one saying what it must be told")
    func corpusSize() throws {
        let committed = try Self.committedFiles()
        print("broken scenario corpus: \(committed.count) committed files, \(Self.generatedFiles().count) generated")
        #expect(committed.count >= 50)
        #expect(committed.filter { $0.expected.isEmpty }.map(\.name) == ["empty.yaml"])
    }

    @Test(
        "every broken file ends in errors at real places inside it, the ones it expects among them",
        .timeLimit(.minutes(1))
    )
    func everyFileEndsInErrors() async throws {
        let files = try Self.committedFiles() + Self.generatedFiles()
        let started = ContinuousClock.now
        let outcome = await withDeadline(.seconds(30)) { try? Self.load(files) }
        let loadedInTime = try #require(outcome, "the corpus did not load within 30 seconds")
        let loaded = try #require(loadedInTime, "the corpus could not be written to a temporary folder")
        print("loaded \(files.count) broken scenario files in \(ContinuousClock.now - started)")
        for (file, path, result) in loaded {
            let rendered = result.diagnostics.map(\.description)
            #expect(result.hasErrors, "\(file.name) loaded without an error: \(rendered)")
            let lineLengths = Self.lineLengths(of: file.bytes)
            for diagnostic in result.diagnostics {
                let location = try #require(diagnostic.location, "\(file.name): \(diagnostic) has no place")
                #expect(location.file == path, "\(file.name): \(diagnostic)")
                let length = lineLengths.indices.contains(location.line - 1) ? lineLengths[location.line - 1] : nil
                #expect(length != nil, "\(file.name): \(diagnostic) is past the last line")
                #expect(
                    (1...(length ?? 0) + 1).contains(location.column),
                    "\(file.name): \(diagnostic) is off its line"
                )
            }
            for expected in file.expected {
                #expect(
                    rendered.contains { Self.matches($0, expected, path: path) },
                    "\(file.name) should be told '\(expected)'; it was told \(rendered)"
                )
            }
        }
    }

    /// `LINE:COLUMN: words` matches an error at that place whose message holds the words; words
    /// alone match an error anywhere in the file.
    static func matches(_ rendered: String, _ expected: String, path: String) -> Bool {
        guard let placed = expected.firstMatch(of: /^(\d+):(\d+): (.*)$/) else {
            return rendered.hasPrefix("\(path):") && rendered.contains(": error: ") && rendered.contains(expected)
        }
        return rendered.hasPrefix("\(path):\(placed.1):\(placed.2): error: ") && rendered.contains(placed.3)
    }

    /// Each line's length in Unicode scalars, so in columns, a byte-order mark not counted.
    /// Where bytes are not UTF-8 reading stops, at the first of them: what follows does not matter.
    static func lineLengths(of bytes: [UInt8]) -> [Int] {
        let text = String(decoding: bytes, as: UTF8.self)
        return SourceText(SourceText.withoutByteOrderMark(text)).lines.map(\.count)
    }

    // MARK: The items, one by one

    @Test(
        "a valid scenario with a UTF-8 byte-order mark, CR LF line ends or both loads as without them",
        arguments: [
            ("byte-order mark", [0xEF, 0xBB, 0xBF] + Array(valid.utf8)),
            ("CR LF", Array(valid.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
            ("both", [0xEF, 0xBB, 0xBF] + Array(valid.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
        ]
    )
    func mustLoad(_ variant: String, _ bytes: [UInt8]) throws {
        let diagnostics = DiagnosticCollector()
        let scenarios = ScenarioLoader.decode(Data(bytes), file: "valid.yaml", diagnostics: diagnostics)
        #expect(diagnostics.diagnostics.isEmpty, "\(diagnostics.diagnostics.map(\.description))")
        #expect(try scenarios == [Fixtures.scenario(Self.valid, file: "valid.yaml")])
        // Text handed over as a String may start with the mark too.
        #expect(Fixtures.diagnostics("\u{FEFF}" + Self.valid).isEmpty)
    }

    @Test("a byte-order mark does not shift the place of an error on the first line")
    func byteOrderMarkAndError() {
        let typo = Self.valid.replacingOccurrences(of: "conformance", with: "conformence")
        let rendered = Fixtures.diagnostics("\u{FEFF}" + typo).map(\.description)
        #expect(
            rendered.first?.hasPrefix(
                "broken.yaml:1:1: error: unknown key 'conformence' in a scenario; did you mean 'conformance'?"
            ) == true,
            "\(rendered)"
        )
    }

    @Test("text that is not UTF-8 is refused at its first bad byte, not loaded with U+FFFD in it")
    func notUTF8() {
        let diagnostics = DiagnosticCollector()
        // "Café" as Latin-1 writes it: é is the one byte 0xE9, in place of the '~' here.
        let bytes = Self.valid(title: "title: Caf~ au lait").utf8.map { $0 == UInt8(ascii: "~") ? 0xE9 : $0 }
        let scenarios = ScenarioLoader.decode(Data(bytes), file: "latin1.yaml", diagnostics: diagnostics)
        #expect(scenarios.isEmpty)
        #expect(
            diagnostics.diagnostics.map(\.description) == [
                "latin1.yaml:3:11: error: the file is not UTF-8 text: byte 0xE9 here is no part of a UTF-8 character "
                    + "(was the file saved as Latin-1 or Windows-1252?); save it as UTF-8"
            ]
        )
    }

    @Test(
        "an explicit YAML tag is refused where it is written",
        arguments: [
            ("title: !!binary QSB0aXRsZQ==", "3:8", "!!binary"),
            ("title: !!python/object:os.system ls", "3:8", "!!python/object:os.system"),
            ("title: !custom t", "3:8", "!custom"),
            ("title: !!str t", "3:8", "!!str"),
            ("title: !!str 'quoted'", "3:8", "!!str"),
            ("title: &t !custom t", "3:11", "!custom"),
            ("title: &t   # the anchor, then the tag\n  !custom t", "4:3", "!custom"),
            ("!!str title: t", "3:1", "!!str"),
            ("title: t\nspec: [!!str a, b]", "4:8", "!!str"),
            ("title: t\nprovider: !!map { tokens: { access_lifetime: 2m } }", "4:11", "!!map"),
            ("title: !<tag:example.com,2024:x> t", "3:8", "!<tag:example.com,2024:x>"),
        ]
    )
    func explicitTags(_ lines: String, _ place: String, _ tag: String) {
        let rendered = Fixtures.diagnostics(Self.valid(title: lines)).map(\.description)
        #expect(
            rendered.first == "broken.yaml:\(place): error: YAML tags have no place in a scenario: "
                + "remove '\(tag)' (each value takes its type from its key)",
            "\(rendered)"
        )
    }

    @Test("a file without tags is not taken for a tagged one: quoted keys and values, anchors, aliases, '!' in text")
    func noTagNoError() throws {
        let yaml = Self.valid(title: "\"title\": &t 'A valid scenario'\ndescription: *t")
            .replacingOccurrences(of: "level: MUST", with: "level: \"MUST\"\nspec: ['!!not a tag', \"!x\", a!b]")
        let scenario = try Fixtures.scenario(yaml)
        #expect(scenario.title == "A valid scenario")
        #expect(scenario.spec == ["!!not a tag", "!x", "a!b"])
    }

    static let headerRule = "provider: { rules: [{ respond: { status: 200, headers: { X-Trace: "

    @Test(
        "a control character in a value is refused with its place, in a header value as in a title",
        arguments: [
            ("title: \"Ding \\a dong\"", "3:8: error: title holds the control character U+0007 (BEL) (character 6)"),
            ("title: \"next\\u0085line\"", "3:8: error: title holds the control character U+0085 (NEL) (character 5)"),
            ("title: \"rub\\x7Fout\"", "3:8: error: title holds the control character U+007F (DEL) (character 4)"),
            (
                "title: t\n\(headerRule)\"a\\x01b\" } } }] }",
                "4:67: error: header X-Trace holds the control character U+0001 (SOH) (character 2)"
            ),
            (
                "title: t\n\(headerRule)\"a\\x7Fb\" } } }] }",
                "4:67: error: header X-Trace holds the control character U+007F (DEL) (character 2)"
            ),
        ]
    )
    func controlCharactersInValues(_ lines: String, _ expected: String) {
        let rendered = Fixtures.diagnostics(Self.valid(title: lines)).map(\.description)
        let rest = "text may hold tabs and line breaks, no other control characters"
        #expect(rendered == ["broken.yaml:\(expected); \(rest)"])
    }

    @Test(
        "tabs and line breaks are text like any other; a header value keeps its own rule against CR, LF and NUL",
        arguments: ["a\\nb", "a\\rb", "a\\0b"]
    )
    func tabsAndLineBreaks(_ headerValue: String) throws {
        let scenario = try Fixtures.scenario(Self.valid(title: "title: \"a\\tb\"\ndescription: \"one\\ntwo\""))
        #expect(scenario.title == "a\tb")
        #expect(scenario.summary == "one\ntwo")
        let header = Fixtures.diagnostics(Self.valid(title: "title: t\n\(Self.headerRule)\"\(headerValue)\" } } }] }"))
        #expect(
            header.map(\.description) == [
                "broken.yaml:4:67: error: header X-Trace: a value cannot hold CR, LF or NUL (RFC 9110 §5.5)"
            ]
        )
    }

    @Test("transport.garbage keeps its control characters: it stands for bytes, not text")
    func garbageIsBytes() throws {
        let rule = "provider: { rules: [{ when: { endpoint: token }, transport: { garbage: \"\\u0001junk\\r\\n\" } }] }"
        let scenario = try Fixtures.scenario(Self.valid(title: "title: t\n\(rule)"))
        #expect(scenario.provider.rules.first?.delivery == .garbage("\u{1}junk\r\n"))
    }

    @Test("a raw control character is reported where it is in the file, not at 1:1")
    func rawControlCharacter() {
        #expect(
            Fixtures.diagnostics("conformance: 1\nid: x\ntitle: a\u{0}b\n").map(\.description) == [
                "broken.yaml:3:9: error: the file holds the control character U+0000 (NUL) here; "
                    + "a YAML file is text, with tabs and line breaks its only control characters"
            ]
        )
    }

    @Test("deep nesting and a second document are told in an author's words, where they happen")
    func nestingAndDocuments() {
        let deep = Fixtures.diagnostics("conformance: 1\nsteps:\n" + String(repeating: "- ", count: 2_000) + "x\n")
        #expect(
            deep.map(\.description) == [
                "broken.yaml:3:1999: error: the document nests deeper than 1000 levels here; a scenario needs a handful"
            ]
        )
        let two = Fixtures.diagnostics(Self.valid + "---\n" + Self.valid)
        #expect(
            two.map(\.description) == [
                "broken.yaml:11:1: error: a second YAML document starts here; "
                    + "the file should hold one document: a scenario"
            ]
        )
    }

    @Test("a duplicate key is reported where it is repeated, naming the line of the first")
    func duplicateKey() {
        let yaml = Self.valid.replacingOccurrences(of: "level: MUST", with: "level: MUST\ntitle: Again")
        #expect(
            Fixtures.diagnostics(yaml).map(\.description) == [
                "broken.yaml:6:1: error: the key 'title' is given again in this mapping (first on line 3); keep one"
            ]
        )
    }

    @Test("an empty file and one holding only comments are told apart")
    func emptyAndComments() {
        #expect(
            Fixtures.diagnostics("").map(\.description) == [
                "broken.yaml:1:1: error: the file is empty; it should hold a scenario"
            ]
        )
        #expect(
            Fixtures.diagnostics("# soon\n").map(\.description) == [
                "broken.yaml:1:1: error: the file holds only comments; it should hold a scenario"
            ]
        )
    }
}
