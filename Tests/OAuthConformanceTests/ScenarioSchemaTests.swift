import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The JSON Schema editors use (Schemas/scenario-1.schema.json) must say what the Swift decoder
/// says: it accepts every built-in scenario, rejects what the decoder rejects, and lists the
/// same keys and enumerations, so the two cannot drift apart.
@Suite("The scenario JSON Schema")
struct ScenarioSchemaTests {
    static let schemaFile = PackageFiles.root.appendingPathComponent("Schemas/scenario-1.schema.json")

    /// Validates YAML files against the schema with Python's jsonschema; one line per file.
    static let validator = """
        import json, sys, yaml, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for path in sys.argv[2:]:
            errors = sorted(validator.iter_errors(yaml.safe_load(open(path))), key=lambda e: list(e.path))
            print(path + ": " + ("valid" if not errors else "invalid: " + errors[0].message[:300].replace("\\n", " ")))
        """

    /// `path: valid` or `path: invalid: …` for each file.
    static func validate(_ files: [String]) async throws -> [String: String] {
        let output = try await JSONSchemaValidation.run(validator, [schemaFile.path] + files)
        var verdicts: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ": ", maxSplits: 1).map(String.init)
            if parts.count == 2 { verdicts[parts[0]] = parts[1] }
        }
        return verdicts
    }

    static var builtInFiles: [String] { PackageFiles.builtInScenarioFiles.map(\.path) }

    @Test("every built-in scenario file is valid against the schema (which is itself valid draft 2020-12)")
    func builtInScenariosAreValid() async throws {
        let files = Self.builtInFiles
        try #require(files.count >= 6)
        let verdicts = try await Self.validate(files)
        for file in files {
            #expect(verdicts[file] == "valid", "\(file): \(verdicts[file] ?? "no verdict")")
        }
    }

    /// Documents both the schema and the decoder must refuse.
    static let broken: [(name: String, yaml: String)] = [
        ("unknown key", "titel: x"),
        ("area outside the enumeration", "area: refrsh"),
        ("a family nobody has", "family: single-flite"),
        (
            "a grant beside an endpoint without one",
            "expect: [{ count: { endpoint: resource, grant: refresh_token, exactly: 0 } }]"
        ),
        ("two actions in one step", "steps: [{ login: password, advance: 5s }]"),
        ("a duration without a unit", "steps: [{ advance: 120 }]"),
        ("count without a bound", "expect: [{ count: { endpoint: token } }]"),
        ("never carrying something unknown", "expect: [{ never: { carries: tokens } }]"),
        ("concurrently zero times", "steps: [{ concurrently: { times: 0, step: { request: GET /resource } } }]"),
        ("an order of one", "expect: [{ order: [{ endpoint: token }] }]"),
        ("an outcome on a clock step", "steps: [{ advance: 5s, outcome: succeeds }]"),
        ("a request without a method", "steps: [{ request: /resource }]"),
        ("a tag with spaces", "tags: [two words]"),
        ("a matrix of nothing", "matrix: { code: [] }"),
    ]

    /// A valid scenario with one line replaced (or added).
    static func withChange(_ change: String) -> String {
        var lines = [
            "conformance: 1", "id: retry/base", "title: t", "area: retry", "level: MUST",
            "steps: [{ login: password }]", "expect: [{ every_step: succeeds }]",
        ]
        let key = String(change.prefix { $0 != ":" })
        if let index = lines.firstIndex(where: { $0.hasPrefix(key + ":") }) {
            lines[index] = change
        } else {
            lines.append(change)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("the schema and the decoder both reject broken documents, and both accept the base document")
    func brokenDocumentsAreRejected() async throws {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [(name: String, path: String)] = []
        for (index, document) in ([("base", "conformance: 1")] + Self.broken).enumerated() {
            let path = directory.appendingPathComponent("\(index).yaml").path
            try Self.withChange(document.yaml).write(toFile: path, atomically: true, encoding: .utf8)
            files.append((document.name, path))
        }
        let verdicts = try await Self.validate(files.map(\.path))
        #expect(verdicts[files[0].path] == "valid", "\(verdicts[files[0].path] ?? "")")
        #expect(!ScenarioLoader.load(paths: [files[0].path]).hasErrors)
        for file in files.dropFirst() {
            #expect(verdicts[file.path]?.hasPrefix("invalid") == true, "the schema accepts \(file.name)")
            #expect(ScenarioLoader.load(paths: [file.path]).hasErrors, "the decoder accepts \(file.name)")
        }
    }

    static func definition(_ name: String) throws -> [String: Any] {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: schemaFile)) as? [String: Any]
        )
        let definitions = try #require(schema["$defs"] as? [String: Any])
        return try #require(definitions[name] as? [String: Any], "no $defs/\(name)")
    }

    static func enumeration(_ name: String) throws -> [String] {
        let anyOf = try #require(try definition(name)["anyOf"] as? [[String: Any]])
        return try #require(anyOf.first?["enum"] as? [String], "$defs/\(name) has no enum")
    }

    /// The property names of a definition, or of a property nested in it.
    static func keys(_ name: String, _ path: String...) throws -> Set<String> {
        var node = try definition(name)
        for property in path {
            let properties = try #require(node["properties"] as? [String: Any])
            node = try #require(properties[property] as? [String: Any], "$defs/\(name) has no \(property)")
        }
        return Set(try #require(node["properties"] as? [String: Any]).keys)
    }

    @Test("the schema's enumerations are the Swift enums' cases")
    func enumerationsMatch() throws {
        #expect(try Self.enumeration("area") == Area.allCases.map(\.rawValue))
        #expect(try Self.enumeration("level") == Level.allCases.map(\.rawValue))
        #expect(try Self.enumeration("capability") == Capability.allCases.map(\.rawValue))
        #expect(try Self.enumeration("endpoint") == Endpoint.allCases.map(\.rawValue))
        #expect(try Self.enumeration("grant") == GrantType.allCases.map(\.scenarioName))
        #expect(try Self.enumeration("errorCategory") == ErrorCategory.allCases.map(\.rawValue))
        #expect(try Self.enumeration("forbiddenCarriage") == ForbiddenCarriage.allCases.map(\.rawValue))
        #expect(try Self.enumeration("tls") == CertificateVariant.allCases.map(\.rawValue))
        #expect(try Self.enumeration("retryAfterFormat") == RetryLater.Format.allCases.map(\.rawValue))
        #expect(try Self.enumeration("origin") == RequestOrigin.allCases.map(\.rawValue))
        #expect(try Self.enumeration("revocationTarget") == RevocationTarget.allCases.map(\.rawValue))
        let scenarioProperties = try #require(try Self.definition("scenario")["properties"] as? [String: Any])
        let family = try #require(scenarioProperties["family"] as? [String: Any])
        #expect(family["enum"] as? [String] == BehaviourFamily.all.map(\.id))
        let grantless = try #require(try Self.definition("grantBesideTokenEndpointsOnly")["not"] as? [String: Any])
        let endpoints = try #require((grantless["properties"] as? [String: Any])?["endpoint"] as? [String: Any])
        #expect(endpoints["enum"] as? [String] == Endpoint.allCases.filter { !$0.takesGrants }.map(\.rawValue))
    }

    @Test("the schema's keys are the decoder's keys")
    func keysMatch() throws {
        #expect(try Self.keys("scenario") == Set(ScenarioDecoder.topLevelKeys))
        #expect(try Self.keys("step") == Set(StepDecoder.stepKeys))
        #expect(try Self.keys("clientOperation") == Set(StepDecoder.clientOperations))
        #expect(try Self.keys("filter") == Set(RequestFilter.keys))
        #expect(try Self.keys("provider") == Set(ProviderDecoder.keys))
        #expect(try Self.keys("provider", "tokens") == Set(ProviderDecoder.tokenKeys))
        #expect(try Self.keys("rule") == Set(["when"] + RuleActionRegistry.keys + RuleDecoder.deliveries))
    }

    @Test("an item of expect has in the schema exactly the keys of the checks in the registry")
    func checkKeysMatchTheRegistry() throws {
        let schema = try Self.keys("expectation")
        let registry = Set(CheckRegistry.keys + CheckRegistry.companionKeys + ExpectationDecoder.judgingKeys)
        #expect(registry.subtracting(schema).isEmpty, "keys the schema lacks: \(registry.subtracting(schema).sorted())")
        #expect(schema.subtracting(registry).isEmpty, "keys no check has: \(schema.subtracting(registry).sorted())")
    }

    @Test("each check has a key of its own, and no key beside a check is another check's")
    func checkKeysAreDistinct() {
        let keys = CheckRegistry.keys + CheckRegistry.companionKeys + ExpectationDecoder.judgingKeys
        #expect(keys.count == Set(keys).count, "\(keys)")
    }

    /// Every misbehaviour the registry lists is a rule action in the schema, one a rule may give
    /// alone and a sequence step may give (but for the sequence itself), and no other.
    @Test("a rule has in the schema exactly the actions in the registry, alone and as a sequence's steps")
    func ruleActionsMatchTheRegistry() throws {
        let registry = Set(RuleActionRegistry.keys)
        let schema = try Self.keys("rule").subtracting(["when"] + RuleDecoder.deliveries)
        #expect(
            registry.subtracting(schema).isEmpty,
            "actions the schema lacks: \(registry.subtracting(schema).sorted())"
        )
        #expect(schema.subtracting(registry).isEmpty, "actions no type has: \(schema.subtracting(registry).sorted())")
        #expect(try Self.keys("sequenceItem") == Set(ActionSequence.stepActions.map { $0.key }))
        // A rule needs an action or a delivery (anyOf), and gives at most one action (not: any two).
        let rule = try Self.definition("rule")
        let needed = try #require(rule["anyOf"] as? [[String: [String]]]).compactMap(\.["required"])
        #expect(Set(needed.filter { $0.count == 1 }.map { $0[0] }) == registry.union(RuleDecoder.deliveries))
        let excluded = try #require((rule["not"] as? [String: Any])?["anyOf"] as? [[String: [String]]])
        let pairs = Set(excluded.compactMap(\.["required"]).map(Set.init))
        let allPairs = registry.flatMap { first in registry.filter { $0 > first }.map { Set([first, $0]) } }
        #expect(pairs == Set(allPairs))
    }

    @Test("every built-in scenario file points editors at the schema with a correct relative path")
    func modelines() throws {
        for file in Self.builtInFiles {
            let firstLine = try String(contentsOfFile: file, encoding: .utf8).prefix { $0 != "\n" }
            let prefix = "# yaml-language-server: $schema="
            try #require(firstLine.hasPrefix(prefix), "\(file) does not start with the modeline")
            let target = URL(fileURLWithPath: file).deletingLastPathComponent()
                .appendingPathComponent(String(firstLine.dropFirst(prefix.count))).standardized
            #expect(target.path == Self.schemaFile.standardized.path, "\(file) points at \(target.path)")
        }
    }
}
