import Foundation
import Testing

@testable import OAuthConformance

/// What the README and docs/ tell users to copy cannot rot: a block that shows a repository file
/// is that file (the files themselves run in `PackagedHarnessTests`, through `scripts/replay-ci`);
/// every profile a page shows or names loads, and every complete scenario it shows passes; and
/// every `conformance` command of docs/ci.md and the pages under docs/ci/ runs as written and exits as the page says
/// (`# exits 1`; else 0).
///
/// The commands run in a workspace of their own: `conformance` on PATH is the one built beside
/// these tests, `Scenarios/` holds three built-in scenarios (the commands are about options and
/// exit statuses, not about the whole suite, which other tests run), and `my-library.yaml`, the
/// pages' placeholder for the reader's profile, runs the reference client out of process: as it
/// is, or, for a block about a library with known gaps (one that says a command `# exits 1`, or
/// that picks a `--fail-on` level), with one deliberate SHOULD-level bug (`stale-token-replay`).
/// What they do not run,
/// and why: `swift build -c release` (the build under test is the debug one these tests run in),
/// and the CI services' own steps (checkout, caches, artifacts; `scripts/replay-ci` plays those of
/// the Python jobs).
@Suite("What the README and docs/ tell users to copy")
struct CopyableDocumentationTests {
    /// The built-in scenarios in a command workspace: one the placeholder library fails at SHOULD,
    /// two it passes.
    static let workspaceScenarios = [
        "retry/401-on-valid-token-refreshes-once-and-replays.yaml",
        "refresh/keeps-refresh-token-when-response-omits-it.yaml",
        "tls/valid-certificate-accepted.yaml",
    ]
    static let shards = 3

    @Test("a block that shows a repository file is that file, byte for byte")
    func fileBlocksAreTheFiles() throws {
        var shown: [String] = []
        for page in try MarkdownCodeBlock.allPages() {
            for block in try MarkdownCodeBlock.blocks(in: page) {
                guard let file = block.file else { continue }
                let text = try String(contentsOf: PackageFiles.root.appendingPathComponent(file), encoding: .utf8)
                #expect(block.text == text, "\(block.testDescription) differs from \(file)")
                shown.append(file)
            }
        }
        #expect(
            Set(shown).isSuperset(of: [
                "Examples/python-library/conformance/independent-client.yaml",
                "Examples/python-library/.github/workflows/conformance.yml",
                "Examples/python-library/.gitlab-ci.yml",
            ]),
            "\(shown)"
        )
    }

    /// Complete scenario files the pages show: a `yaml` block that starts as one does. The
    /// scenario language's pages mark their complete ones `yaml scenario` (`DocumentationExampleTests`
    /// runs them); their plain `yaml` blocks are the tutorial's fragments, one of them wrong on purpose.
    static func scenarioBlocks() throws -> [MarkdownCodeBlock] {
        try MarkdownCodeBlock.allPages().filter { !$0.hasPrefix("docs/scenario-language") }
            .flatMap { try MarkdownCodeBlock.blocks(in: $0) }
            .filter { $0.language == "yaml" && $0.text.hasPrefix("conformance: 1\n") }
    }

    @Test("every complete scenario a page shows loads without a diagnostic and passes on the reference client")
    func shownScenariosPass() async throws {
        let blocks = try Self.scenarioBlocks()
        #expect(blocks.contains { $0.page == "README.md" })
        for block in blocks {
            let collector = DiagnosticCollector()
            let scenarios = ScenarioLoader.decode(block.text, file: block.testDescription, diagnostics: collector)
            #expect(collector.diagnostics.isEmpty, "\(collector.diagnostics.map(\.description))")
            #expect(!scenarios.isEmpty, "\(block.testDescription)")
            for scenario in scenarios {
                let result = await ScenarioRunner().run(scenario, with: ReferenceClientFactory())
                #expect(result.verdict == .passed, "\(block.testDescription): \(result.verdict)")
            }
        }
    }

    @Test("the sample library's profile declares all the independent client does, as its shipped reactive profile does")
    func sampleProfileDeclaresTheClient() throws {
        let sample = AdapterProfileLoader.load(
            path: PackageFiles.root.appendingPathComponent(
                "Examples/python-library/conformance/independent-client.yaml"
            ).path
        )
        #expect(sample.diagnostics.isEmpty, "\(sample.diagnostics.map(\.description))")
        let shipped = AdapterProfileLoader.load(
            path: PackageFiles.root.appendingPathComponent("Adapters/python/independent-reactive.yaml").path
        )
        var declared = try #require(sample.profile)
        let reference = try #require(shipped.profile, "\(shipped.diagnostics.map(\.description))")
        #expect(
            declared.command == [
                "python", "-m", "oauth_conformance.adapter", "independent_adapter.py", "--mode", "reactive",
            ]
        )
        // Everything but how the adapter is installed and started, and the names.
        declared.file = reference.file
        declared.name = reference.name
        declared.declared.name = reference.declared.name
        declared.command = reference.command
        declared.directory = reference.directory
        declared.install = reference.install
        #expect(declared == reference)
    }

    @Test(
        "the profile reference of docs/adapter-protocol/profile.md loads without a diagnostic beside the adapter it names"
    )
    func adapterProtocolProfileLoads() throws {
        let block = try #require(
            try MarkdownCodeBlock.blocks(in: "docs/adapter-protocol/profile.md").first {
                $0.language == "yaml" && $0.text.hasPrefix("profile: 1")
            }
        )
        // Its `directory: .` and `command` are those of a profile in Adapters/python.
        let loaded = AdapterProfileLoader.decode(
            block.text,
            file: PackageFiles.root.appendingPathComponent("Adapters/python/from-the-docs.yaml").path
        )
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.description))")
    }

    @Test("every profile a page tells users to run exists and loads, and every install script it names is there")
    func namedProfilesLoad() throws {
        var named: Set<String> = []
        for page in try MarkdownCodeBlock.allPages() {
            let text = try String(contentsOf: PackageFiles.root.appendingPathComponent(page), encoding: .utf8)
            for match in text.matches(of: /(Adapters\/[\w\/.-]+\.(yaml|sh))/) { named.insert(String(match.output.1)) }
        }
        #expect(named.count >= 8, "\(named.sorted())")
        for path in named.sorted() {
            let url = PackageFiles.root.appendingPathComponent(path)
            #expect(FileManager.default.fileExists(atPath: url.path), "\(path) is named in the docs but not there")
            if path.hasSuffix(".yaml"), FileManager.default.fileExists(atPath: url.path) {
                let loaded = AdapterProfileLoader.load(path: url.path)
                #expect(!loaded.hasErrors, "\(path): \(loaded.diagnostics.map(\.description))")
            }
        }
    }

    /// One command of a block, and the status the page says it exits with.
    struct Command: Sendable {
        let text: String
        let expectedStatus: Int32
        /// It names a shard (`${{ matrix.shard }}`, `$CI_NODE_INDEX`, `${SHARD}`): it runs once per shard.
        var isSharded: Bool { ["matrix.shard", "CI_NODE_INDEX", "SHARD"].contains { text.contains($0) } }
    }

    /// The blocks of docs/ci.md and docs/ci/ that hold `conformance` commands: shell blocks, the
    /// CI services' YAML (the files the Python jobs show excepted: scripts/replay-ci runs those)
    /// and the Jenkinsfile.
    static func ciBlocks() throws -> [MarkdownCodeBlock] {
        let pages = try MarkdownCodeBlock.allPages().filter { $0 == "docs/ci.md" || $0.hasPrefix("docs/ci/") }
        return try pages.flatMap(MarkdownCodeBlock.blocks(in:)).filter {
            ["sh", "yaml", "groovy"].contains($0.language) && $0.file == nil && $0.text.contains("conformance ")
        }
    }

    static func commands(in block: MarkdownCodeBlock) async throws -> [Command] {
        let lines: [String]
        switch block.language {
        case "sh":
            lines = block.text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").map(String.init)
        case "yaml":
            // The strings a CI service runs: GitHub's `run:`, GitLab's `script:`, in order.
            let program = """
                import json, sys, yaml
                found = []
                def walk(node):
                    if isinstance(node, dict):
                        for key, value in node.items():
                            if key == "run" and isinstance(value, str): found.append(value)
                            elif key == "script" and isinstance(value, list): found.extend(value)
                            else: walk(value)
                    elif isinstance(node, list):
                        for item in node: walk(item)
                walk(yaml.safe_load(sys.stdin.read()))
                print(json.dumps(found))
                """
            let scratch = try PackageFiles.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let input = scratch.appendingPathComponent("block.yaml")
            try block.text.write(to: input, atomically: true, encoding: .utf8)
            let parsed = try await ProcessRun.run(
                URL(fileURLWithPath: "/bin/sh"),
                ["-c", "python3 -c \"$0\" < \"$1\"", program, input.path]
            )
            try #require(parsed.status == 0, "\(block.testDescription) is not YAML: \(parsed.standardError)")
            lines = try JSONDecoder().decode([String].self, from: Data(parsed.standardOutput.utf8))
        default:
            lines = block.text.matches(of: /sh '([^']*)'/).map { String($0.output.1) }
        }
        return lines.compactMap { line in
            let command = line.trimmingCharacters(in: .whitespacesAndNewlines)
            // Building the harness is not what is tested here (see the suite's comment).
            guard !command.isEmpty, !command.hasPrefix("#"), command.contains("conformance "),
                !command.hasPrefix("swift build")
            else { return nil }
            let status = command.firstMatch(of: /# exits (\d+)/).flatMap { Int32($0.output.1) } ?? 0
            return Command(text: command, expectedStatus: status)
        }
    }

    /// A folder like a user's checkout: `Scenarios/`, `my-library.yaml` (with a known gap, or
    /// none), `bin/conformance`.
    static func workspace(libraryHasGap: Bool) throws -> URL {
        let folder = try PackageFiles.temporaryDirectory()
        for scenario in workspaceScenarios {
            let target = folder.appendingPathComponent("Scenarios/\(scenario)")
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try FileManager.default.copyItem(at: PackageFiles.scenarios.appendingPathComponent(scenario), to: target)
        }
        let reference = try String(
            contentsOf: PackageFiles.root.appendingPathComponent("Adapters/swift/reference.yaml"),
            encoding: .utf8
        )
        var profile: [String] = []
        for line in reference.components(separatedBy: "\n") {
            if line.hasPrefix("name:") {
                profile.append("name: my-library")
            } else if line.hasPrefix("  directory:") {
                continue
            } else if line.hasPrefix("  command:") {
                let defect = libraryHasGap ? ", --defect, stale-token-replay" : ""
                profile.append("  command: [\(PackageFiles.referenceAdapterExecutable.path)\(defect)]")
            } else {
                profile.append(line)
            }
        }
        try profile.joined(separator: "\n").write(
            to: folder.appendingPathComponent("my-library.yaml"),
            atomically: true,
            encoding: .utf8
        )
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("conformance"),
            withDestinationURL: PackageFiles.conformanceExecutable
        )
        return folder
    }

    @Test("the CI pages' conformance commands run as written and exit as the page says", arguments: try ciBlocks())
    func ciCommandsRun(_ block: MarkdownCodeBlock) async throws {
        let commands = try await Self.commands(in: block)
        try #require(!commands.isEmpty, "\(block.testDescription) holds no conformance command")
        let workspace = try Self.workspace(
            libraryHasGap: commands.contains { $0.expectedStatus != 0 || $0.text.contains("--fail-on") }
        )
        defer { try? FileManager.default.removeItem(at: workspace) }
        for command in commands {
            for shard in command.isSharded ? Array(1...Self.shards) : [0] {
                let text = command.text
                    .replacingOccurrences(of: ".build/release/conformance", with: "conformance")
                    .replacingOccurrences(of: "${{ matrix.shard }}", with: "\(shard)")
                let run = try await ProcessRun.run(
                    URL(fileURLWithPath: "/usr/bin/env"),
                    [
                        "PATH=\(workspace.appendingPathComponent("bin").path):/usr/bin:/bin",
                        "GITHUB_STEP_SUMMARY=\(workspace.appendingPathComponent("step-summary.md").path)",
                        "CI_NODE_INDEX=\(shard)", "CI_NODE_TOTAL=\(Self.shards)", "SHARD=\(shard)",
                        "bash", "-c", text,
                    ],
                    in: workspace
                )
                #expect(
                    run.status == command.expectedStatus,
                    "\(block.testDescription): `\(text)` exited \(run.status), the page says \(command.expectedStatus)\n\(run.standardOutput)\n\(run.standardError)"
                )
            }
        }
    }
}
