import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The JSON Schema of the adapter protocol (Schemas/adapter-1.schema.json), which adapters in any
/// language check their answers against, must say what the harness says: its ops are
/// `AdapterOp`'s, its enumerations the Swift enums', and every line of a real run, both ways,
/// validates against it, as does the annotated transcript in docs/adapter-protocol/transcript.md.
@Suite("The adapter protocol's JSON Schema")
struct AdapterSchemaTests {
    static let schemaFile = PackageFiles.root.appendingPathComponent("Schemas/adapter-1.schema.json")

    /// One line of the protocol and the schema definition it must satisfy (a JSON pointer into
    /// the schema, e.g. `#/$defs/answer/$defs/login`).
    struct Line: Sendable {
        var definition: String
        var json: String
        var source: String
    }

    /// Reads lines of `[definition, line]` and prints `N: valid` or `N: invalid: …` for each.
    static let validator = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validators = {}
        for number, entry in enumerate(open(sys.argv[2]), 1):
            definition, line = json.loads(entry)
            if definition not in validators:
                validators[definition] = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": definition})
            errors = list(validators[definition].iter_errors(json.loads(line)))
            best = jsonschema.exceptions.best_match(errors) if errors else None
            print(f"{number}: " + ("valid" if best is None else "invalid: " + best.message[:300].replace("\\n", " ")))
        """

    /// Each line's verdict, in order.
    static func validate(_ lines: [Line]) async throws -> [String] {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("lines.jsonl")
        let entries = lines.map { JSONValue.array([.string($0.definition), .string($0.json)]).serialized() }
        try (entries.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let output = try await JSONSchemaValidation.run(validator, [schemaFile.path, input.path])
        var verdicts = Array(repeating: "no verdict", count: lines.count)
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: ": ", maxSplits: 1).map(String.init)
            if parts.count == 2, let number = Int(parts[0]), (1...lines.count).contains(number) {
                verdicts[number - 1] = parts[1]
            }
        }
        return verdicts
    }

    /// Expects every line valid, naming each that is not.
    static func expectValid(_ lines: [Line]) async throws {
        let verdicts = try await validate(lines)
        for (line, verdict) in zip(lines, verdicts) {
            #expect(
                verdict == "valid",
                "\(line.source): \(line.json.prefix(300)) against \(line.definition): \(verdict)"
            )
        }
    }

    /// The lines of a trace (`>` sent, `<` received, as `OAUTH_CONFORMANCE_TRACE` writes them and
    /// docs/adapter-protocol.md quotes them), each paired with its definition: a message by its op,
    /// an answer by the op of the message before it. A line cut short (`…`, in the docs) is no JSON
    /// and is left out, with the answer to a message so cut.
    static func lines(ofTrace trace: String, source: String) -> [Line] {
        var lines: [Line] = []
        var op: String?
        for (index, text) in trace.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let place = "\(source):\(index + 1)"
            let json = String(text.dropFirst(2))
            if text.hasPrefix("> ") {
                op = text.contains("…") ? nil : JSONValue.parse(json)?["op"]?.stringValue ?? ""
                if op != nil { lines.append(Line(definition: "#/$defs/message", json: json, source: place)) }
            } else if text.hasPrefix("< "), let op, !text.contains("…") {
                lines.append(Line(definition: "#/$defs/answer/$defs/\(op)", json: json, source: place))
            }
        }
        return lines
    }

    /// The ops of the messages among `lines`.
    static func ops(_ lines: [Line]) -> Set<String> {
        Set(
            lines.filter { $0.definition == "#/$defs/message" }.compactMap {
                JSONValue.parse($0.json)?["op"]?.stringValue
            }
        )
    }

    /// Scenarios that between them make the harness send every op but `tokens` (which no step
    /// asks), with every optional environment field set somewhere (TLS, PAR, private_key_jwt, DPoP).
    static let scenarios = [
        "refresh/keeps-refresh-token-when-response-omits-it", "refresh/tokens-survive-restart",
        "concurrency/one-refresh-for-concurrent-expired-requests", "errors/token-error-surfaced",
        "security/authorization-response-state-refused", "security/pushed-authorization-request-by-reference",
        "security/private-key-jwt-client-authentication", "tls/valid-certificate-accepted", "oidc/sign-in-accepted",
        "oidc/userinfo-subject-mismatch-refused", "oidc/third-party-sign-in/exchanged-for-app-tokens",
        "device/denial-ends-polling", "dpop/bound-token-presented-with-proof", "security/native-app-loopback-sign-in",
        "mcp/protected-resource-metadata-for-another-resource-refused", "mcp/step-up-asks-for-the-union",
    ].map { "Scenarios/\($0).yaml" }

    /// What `conformance run --client PROFILE` exchanged with its adapter over those scenarios,
    /// one at a time so the trace is one conversation.
    static func trace(_ profile: String) async throws -> String {
        let directory = try PackageFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("trace").path
        let run = try await ProcessRun.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "OAUTH_CONFORMANCE_TRACE=\(trace)", PackageFiles.conformanceExecutable.path, "run", "--jobs", "1",
                "--client", profile, "--junit", directory.appendingPathComponent("junit.xml").path,
            ] + scenarios
        )
        try #require(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        return try String(contentsOfFile: trace, encoding: .utf8)
    }

    static func schema() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: schemaFile)) as? [String: Any])
    }

    /// The schema's definition at a path of `$defs` names, e.g. `["answer", "login"]`.
    static func definition(_ path: String...) throws -> [String: Any] {
        var node = try schema()
        for name in path {
            let definitions = try #require(node["$defs"] as? [String: Any], "no $defs above \(name)")
            node = try #require(definitions[name] as? [String: Any], "no $defs/\(name)")
        }
        return node
    }

    @Test("the schema has a message and an answer for every op the harness sends, and no other")
    func ops() throws {
        let ops = Set(AdapterOp.allCases.map(\.rawValue))
        #expect(Set(try #require(try Self.definition("message")["$defs"] as? [String: Any]).keys) == ops)
        #expect(Set(try #require(try Self.definition("answer")["$defs"] as? [String: Any]).keys) == ops)
        #expect(try #require(try Self.definition("message")["oneOf"] as? [Any]).count == ops.count)
        #expect(try #require(try Self.definition("answer")["anyOf"] as? [Any]).count == ops.count)
    }

    @Test("the schema's enumerations are the Swift enums' cases, and reset's environment has the Codable keys")
    func enumerations() throws {
        func enumeration(_ node: [String: Any]) throws -> [String] { try #require(node["enum"] as? [String]) }
        let environment = try #require(try Self.definition("environment")["properties"] as? [String: Any])
        #expect(try enumeration(Self.definition("capability")) == Capability.allCases.map(\.rawValue))
        #expect(try enumeration(Self.definition("category")) == ErrorCategory.allCases.map(\.rawValue))
        #expect(try enumeration(Self.definition("grant")) == GrantType.loginGrants.map(\.rawValue))
        #expect(
            try enumeration(#require(environment["token_endpoint_auth_method"] as? [String: Any]))
                == ClientAuthenticationMethod.allCases.map(\.rawValue)
        )
        #expect(
            try enumeration(#require(environment["id_token_signing_alg"] as? [String: Any]))
                == IDTokenAlgorithm.allCases.map(\.rawValue)
        )
        let keys =
            ClientEnvironment.CodingKeys.allCases.map(\.rawValue)
            + ProviderEndpoints.CodingKeys.allCases.map(\.rawValue)
        #expect(Set(environment.keys) == Set(keys))
        #expect(Set(try #require(try Self.definition("environment")["required"] as? [String])) == Set(keys))
    }

    /// One value of every kind of call, and of every kind of answer each gives.
    static let exchanges: [(call: ClientCall, answers: [ClientAnswer])] = {
        let failure = ClientAnswer.outcome(
            .failure(
                ClientFailure(
                    .authorizationRequired,
                    oauthError: "invalid_grant",
                    status: 400,
                    message: "the grant is dead",
                    errorType: "InvalidGrantError"
                )
            )
        )
        let outcomes = [ClientAnswer.outcome(.success(status: 200, body: "{}")), failure]
        let prompt = DevicePrompt(userCode: "WDJB-MJH1", verificationURI: "http://127.0.0.1:1/device")
        return [
            (.login(.password), outcomes), (.login(.refreshToken), outcomes),
            (.request(method: "GET", url: "http://127.0.0.1:1/resource"), outcomes), (.restart, outcomes),
            (.authorizationURL, [.browserURL("http://127.0.0.1:1/authorize?client_id=c"), failure]),
            (.mcpAuthorizationURL, [.browserURL("http://127.0.0.1:1/authorize?client_id=c&resource=r"), failure]),
            (.completeAuthorization(redirectURL: "http://127.0.0.1/callback?code=c&state=s"), outcomes),
            (.beginNativeSignIn, [.openURL("http://127.0.0.1:1/authorize?client_id=c"), failure]),
            (.finishNativeSignIn, outcomes),
            (.signInURL, [.browserURL("http://127.0.0.1:1/authorize?scope=openid"), failure]),
            (.completeSignIn(redirectURL: "http://127.0.0.1/callback?code=c&state=s"), outcomes),
            (.userinfo, outcomes), (.exchangeSignIn, outcomes),
            (
                .startDeviceAuthorization,
                [
                    .devicePrompt(prompt), failure,
                    .devicePrompt(DevicePrompt(userCode: "A", verificationURI: "u", verificationURIComplete: "u?A")),
                ]
            ),
            (.pollDeviceAuthorization, [.pollAgain(after: .milliseconds(5_500))] + outcomes),
            (.identity, [.identity(SignedInIdentity(issuer: "http://127.0.0.1:1", subject: "alice")), .identity(nil)]),
            (
                .restoreSession(
                    SavedSession(
                        accessToken: "at-1",
                        tokenType: "Bearer",
                        refreshToken: "rt-1",
                        expiresAt: VirtualClock.defaultOrigin.addingTimeInterval(3600),
                        scope: nil
                    )
                ), outcomes
            ),
            (
                .restoreSession(
                    SavedSession(
                        accessToken: "at-1",
                        tokenType: "DPoP",
                        refreshToken: nil,
                        expiresAt: nil,
                        scope: "a b"
                    )
                ), outcomes
            ),
            (
                .storedTokens,
                [
                    .storedTokens(nil),
                    .storedTokens(StoredTokens(accessToken: "at", refreshToken: nil, expiresAt: nil)),
                    .storedTokens(
                        StoredTokens(accessToken: "at", refreshToken: "rt", expiresAt: VirtualClock.defaultOrigin)
                    ),
                ]
            ),
        ]
    }()

    @Test("every call travels as a message the schema takes and the reference adapter reads back as the same call")
    func callsAsMessages() async throws {
        var lines: [Line] = []
        for (call, _) in Self.exchanges {
            let line = AdapterRequest(id: 3, op: call.op, now: VirtualClock.defaultOrigin, fields: call.fields).line
            #expect(JSONValue.parse(line).flatMap(ClientCall.init(message:)) == call, "\(line)")
            lines.append(Line(definition: "#/$defs/message", json: line, source: "\(call)"))
        }
        let batchable = Self.exchanges.map(\.call).filter(\.isBatchable)
        #expect(batchable.count == 4, "two logins, a request and a restart")
        let batch = AdapterRequest(
            id: 4,
            op: .concurrently,
            now: VirtualClock.defaultOrigin,
            fields: ["operations": .array(batchable.map(\.batchOperation))]
        ).line
        lines.append(Line(definition: "#/$defs/message", json: batch, source: "a concurrently batch"))
        #expect(Set(Self.exchanges.map(\.call.op)).count == 17, "every call has an op of its own")
        try await Self.expectValid(lines)
    }

    @Test("every answer the reference adapter writes is valid for its call, and the harness reads back the same answer")
    func answersAsReplies() async throws {
        var lines: [Line] = []
        for (call, answers) in Self.exchanges {
            for answer in answers {
                var members = answer.replyMembers
                members["id"] = .integer(3)
                let line = JSONValue.object(members).serialized()
                lines.append(Line(definition: "#/$defs/answer/$defs/\(call.op)", json: line, source: "\(answer)"))
                let reply = AdapterReply(id: 3, members: members)
                #expect(try reply.answer(to: call).get() == answer, "\(line)")
            }
        }
        try await Self.expectValid(lines)
    }

    @Test(
        "every message of a run through the reference adapter, and every answer it gave, is valid; every op but tokens and restore_tokens is sent"
    )
    func referenceAdapterRun() async throws {
        let lines = Self.lines(ofTrace: try await Self.trace("Adapters/swift/reference.yaml"), source: "trace")
        #expect(Self.ops(lines) == Set(AdapterOp.allCases.map(\.rawValue)).subtracting(["tokens", "restore_tokens"]))
        try await Self.expectValid(lines)
    }

    @Test("every answer a Python adapter gave in a run is valid (authlib, through the shared oauth_adapter.py)")
    func pythonAdapterRun() async throws {
        let lines = Self.lines(ofTrace: try await Self.trace("Adapters/python/authlib.yaml"), source: "trace")
        #expect(
            Self.ops(lines).isSuperset(of: ["hello", "reset", "login", "request", "concurrently", "end", "shutdown"])
        )
        try await Self.expectValid(lines)
    }

    @Test("the annotated transcript in docs/adapter-protocol/transcript.md is valid line by line")
    func documentedTranscript() async throws {
        let page = try String(
            contentsOf: PackageFiles.root.appendingPathComponent("docs/adapter-protocol/transcript.md"),
            encoding: .utf8
        )
        let lines = Self.lines(ofTrace: page, source: "docs/adapter-protocol/transcript.md")
        #expect(lines.count >= 30, "\(lines.count) lines of the transcript")
        #expect(Self.ops(lines).isSuperset(of: ["hello", "reset", "login", "request", "advance", "exchange", "end"]))
        try await Self.expectValid(lines)
    }
}
