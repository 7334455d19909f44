import Foundation
import MockProvider
import Yams

/// Client profile files → `AdapterProfile`, every problem reported as `file:line:column` the way
/// the scenario loader reports them.
public enum AdapterProfileLoader {
    public static let formatVersion = 1
    static let topLevelKeys = [
        "profile", "name", "adapter", "sign_in", "client_type", "redirect_uri", "client_id_metadata_url",
        "capabilities",
        "policies", "timeouts", "expected_failures", "application_part",
    ]
    static let adapterKeys = ["command", "directory", "environment", "faketime", "faketime_library", "install"]
    static let policyKeys = [
        "refresh_window", "missing_expires_in", "id_token_signature", "id_token_clock_skew", "jwks_refetch_interval",
        "dpop_downgrade",
    ]
    static let timeoutKeys = ["start", "operation", "scenario"]

    /// Where Debian, Ubuntu and a source install put libfaketime; the thread-safe build first,
    /// since adapters run `concurrently` batches on threads.
    public static let fakeTimeLibraryCandidates =
        ["x86_64-linux-gnu", "aarch64-linux-gnu", ""].flatMap { triple in
            ["libfaketimeMT.so.1", "libfaketime.so.1"].map {
                "/usr/lib/\(triple.isEmpty ? "" : triple + "/")faketime/\($0)"
            }
        } + ["/usr/local/lib/faketime/libfaketimeMT.so.1", "/usr/local/lib/faketime/libfaketime.so.1"]

    public struct Result: Sendable {
        public var profile: AdapterProfile?
        public var diagnostics: [Diagnostic]
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    public static func load(path: String) -> Result {
        guard let data = FileManager.default.contents(atPath: path) else {
            return Result(
                profile: nil,
                diagnostics: [
                    Diagnostic(
                        .error,
                        "cannot read the client profile",
                        at: SourceLocation(file: path, line: 1, column: 1)
                    )
                ]
            )
        }
        return decode(String(decoding: data, as: UTF8.self), file: path)
    }

    /// Decodes profile YAML; relative paths in it are taken from the folder of `file`.
    public static func decode(_ text: String, file: String) -> Result {
        let diagnostics = DiagnosticCollector()
        let profile = YAMLSyntaxProblem.document(
            text,
            file: file,
            holding: "a client profile",
            diagnostics: diagnostics
        )
        .flatMap { ProfileDecoder(reader: YAMLReader(file: file, diagnostics: diagnostics), file: file).decode($0) }
        return Result(profile: diagnostics.hasErrors ? nil : profile, diagnostics: diagnostics.diagnostics)
    }
}

private struct ProfileDecoder {
    let reader: YAMLReader
    let file: String

    /// The folder relative paths start from.
    var base: URL { URL(fileURLWithPath: file).deletingLastPathComponent() }

    func decode(_ node: Node) -> AdapterProfile? {
        guard let top = reader.mapping(node, "a client profile", allowedKeys: AdapterProfileLoader.topLevelKeys) else {
            return nil
        }
        if let node = top.required(
            "profile",
            hint: " (the format version: profile: \(AdapterProfileLoader.formatVersion))"
        ),
            let version = reader.int(node, "profile (the format version)", in: 0...Int.max),
            version != AdapterProfileLoader.formatVersion
        {
            reader.error(
                "profile format \(version) is not supported; this harness reads profile: \(AdapterProfileLoader.formatVersion)",
                at: node
            )
        }
        let name = top["name"].flatMap { reader.string($0, "name") }
        let adapter = top.required("adapter", hint: " (how to start the client's adapter: adapter: { command: … })")
            .flatMap(adapterSection)
        let signInMethods = top["sign_in"].map(signInMethodList)
        let clientType = top["client_type"].map { reader.enumeration($0, "client_type", as: ClientType.self) }
        let redirectURI = top["redirect_uri"].map(registeredRedirectURI)
        let metadataURL = top["client_id_metadata_url"].map(clientIDMetadataURL)
        let capabilities = top.required("capabilities", hint: " (what the client can do; [] for none)").map {
            Set(reader.capabilities($0, "capabilities")).union(
                (signInMethods ?? nil)?.compactMap(\.impliedCapability) ?? []
            )
        }
        let policies = top["policies"].flatMap {
            reader.mapping($0, "policies", allowedKeys: AdapterProfileLoader.policyKeys)
        }
        let refreshWindow = policies?["refresh_window"].flatMap { reader.duration($0, "refresh_window") }
        let missingExpiresIn = policies?["missing_expires_in"].flatMap(missingExpiresInPolicy)
        let clockSkew = policies?["id_token_clock_skew"].flatMap { reader.duration($0, "id_token_clock_skew") }
        let refetchInterval = policies?["jwks_refetch_interval"].flatMap {
            reader.duration($0, "jwks_refetch_interval")
        }
        let signature = policies?["id_token_signature"].flatMap {
            reader.enumeration($0, "id_token_signature", as: IDTokenSignaturePolicy.self)
        }
        let downgrade = policies?["dpop_downgrade"].flatMap {
            reader.enumeration($0, "dpop_downgrade", as: DPoPDowngradePolicy.self)
        }
        if let capabilities, let node = top["capabilities"] {
            if capabilities.contains(.idTokenSignature) {
                reader.error(
                    "id_token_signature is declared as a policy: policies.id_token_signature: checked (or tls_only)",
                    at: node
                )
            }
            if capabilities.contains(.dpopDowngradeRefused) || capabilities.contains(.dpopDowngradeUsedAsBearer) {
                reader.error(
                    "dpop_downgrade_refused and dpop_downgrade_used_as_bearer are declared as a policy: policies.dpop_downgrade: refuse (or use_as_bearer)",
                    at: node
                )
            }
            if capabilities.contains(.clientIDMetadataDocument), metadataURL == nil {
                reader.error(
                    "client_id_metadata_document needs client_id_metadata_url: the https URL of the client's Client ID Metadata Document, its client_id where the authorization server takes one",
                    at: node
                )
            }
            if capabilities.contains(.dpop), downgrade == nil {
                reader.error(
                    "dpop needs policies.dpop_downgrade: refuse, or use_as_bearer for a client that uses a Bearer answer to its proof as a bearer token (RFC 9449 §7.1 leaves it to the client)",
                    at: node
                )
            }
            if capabilities.contains(.openID), signature == nil {
                reader.error(
                    "openid needs policies.id_token_signature: checked, or tls_only for a client that relies on TLS instead of the ID token's signature (OIDC Core §3.1.3.7 step 6)",
                    at: node
                )
            }
        }
        let timeouts = top["timeouts"].map(timeoutSection) ?? AdapterProfile.Timeouts()
        let expectedFailures = top["expected_failures"].map(expectedFailureList) ?? []
        let applicationPart = top["application_part"].map(applicationPartList) ?? []
        if let capabilities, capabilities.contains(.proactiveRefresh), refreshWindow == nil,
            let node = top["capabilities"]
        {
            reader.error(
                "proactive_refresh needs policies.refresh_window, the window scenarios check the refresh against",
                at: node
            )
        }
        // The window scenarios call 1 s inside the window and want the refresh before expiry: a
        // window of a second or less holds no call, and is no proactive refresh at all.
        if let refreshWindow, refreshWindow <= .seconds(1), let node = policies?["refresh_window"] {
            reader.error(
                "refresh_window must be longer than 1s; a client that refreshes only once its token has expired declares no proactive_refresh and no window",
                at: node
            )
        }
        guard let adapter, let capabilities, signInMethods != .some(nil), clientType != .some(nil),
            redirectURI != .some(nil), metadataURL != .some(nil)
        else { return nil }
        return AdapterProfile(
            file: file,
            name: name,
            command: adapter.command,
            directory: adapter.directory,
            environment: adapter.environment,
            fakeTimeLibrary: adapter.fakeTimeLibrary,
            install: adapter.install,
            declared: ClientProfile(
                name: name ?? "adapter",
                version: "unknown",
                capabilities: capabilities.union(signature == .checked ? [.idTokenSignature] : [])
                    .union(downgrade.map { [$0.capability] } ?? []),
                signInMethods: (signInMethods ?? nil) ?? SignInMethod.undeclared,
                clientType: (clientType ?? nil) ?? .confidential,
                redirectURI: redirectURI ?? nil,
                clientIDMetadataURL: metadataURL ?? nil,
                refreshWindow: refreshWindow,
                missingExpiresIn: missingExpiresIn,
                idTokenClockSkew: clockSkew,
                jwksRefetchInterval: refetchInterval,
                expectedFailures: expectedFailures,
                applicationPart: applicationPart
            ),
            timeouts: timeouts
        )
    }

    /// `client_id_metadata_url: https://client.example/oauth/metadata.json`: the URL of the client's
    /// Client ID Metadata Document, which MCP authorization requires to be `https` with a path;
    /// nil after reporting a problem.
    private func clientIDMetadataURL(_ node: Node) -> String? {
        guard let text = reader.string(node, "client_id_metadata_url") else { return nil }
        guard ClientRegistrationPolicy.isMetadataDocumentURL(text) else {
            reader.error(
                "client_id_metadata_url is the URL of the client's Client ID Metadata Document, its client_id: an https URL with a path and no fragment (MCP authorization, Client ID Metadata Documents); got \(text)",
                at: node
            )
            return nil
        }
        return text
    }

    /// `redirect_uri: http://127.0.0.1/`: the redirect URI the client is registered with, an
    /// absolute http(s) URI without a fragment (RFC 6749 §3.1.2); nil after reporting a problem.
    private func registeredRedirectURI(_ node: Node) -> String? {
        guard let text = reader.string(node, "redirect_uri") else { return nil }
        guard let parts = URLComponents(string: text), ["http", "https"].contains(parts.scheme ?? ""),
            !(parts.host ?? "").isEmpty, parts.fragment == nil
        else {
            reader.error(
                "redirect_uri is the URI the client is registered with: an absolute http or https URI without a fragment (RFC 6749 §3.1.2), such as http://127.0.0.1/ for a library that listens on its own loopback path; got \(text)",
                at: node
            )
            return nil
        }
        return text
    }

    /// `sign_in: [authorization_code, tokens]`: how the client signs a user in, most preferred
    /// first, each once; nil after reporting a problem.
    private func signInMethodList(_ node: Node) -> [SignInMethod]? {
        let items: [Node] = if case .scalar = node { [node] } else { reader.sequence(node, "sign_in") ?? [] }
        guard !items.isEmpty else {
            reader.error(
                "sign_in lists how the client signs a user in, most preferred first (\(YAMLReader.list(SignInMethod.allCases.map(\.rawValue)))); leave it out for password",
                at: node
            )
            return nil
        }
        var methods: [SignInMethod] = []
        for item in items {
            guard let method = reader.enumeration(item, "sign-in method", as: SignInMethod.self) else { return nil }
            guard !methods.contains(method) else {
                reader.error("sign_in lists \(method.rawValue) twice", at: item)
                return nil
            }
            methods.append(method)
        }
        return methods
    }

    private struct AdapterSection {
        var command: [String]
        var directory: String
        var environment: [String: String]
        var fakeTimeLibrary: String?
        var install: String?
    }

    private func adapterSection(_ node: Node) -> AdapterSection? {
        guard let section = reader.mapping(node, "adapter", allowedKeys: AdapterProfileLoader.adapterKeys) else {
            return nil
        }
        let directory =
            section["directory"].flatMap { reader.string($0, "adapter.directory") }
            .map { URL(fileURLWithPath: $0, relativeTo: base).standardizedFileURL.path }
            ?? base.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if let node = section["directory"],
            !(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            reader.error("adapter.directory \(directory) is not a folder", at: node)
        }
        let command = section.required("command", hint: " (the program and its arguments)").flatMap {
            commandLine($0, directory: directory)
        }
        let install = section["install"].flatMap { reader.string($0, "adapter.install") }
        if let program = command?.first, let node = section["command"], !Self.isRunnable(program, directory: directory)
        {
            reader.error(
                "adapter.command: \(program) is not there to run (no such file, or not executable); "
                    + (install.map { "install the adapter first: \($0)" }
                        ?? "install the adapter, or correct the command"),
                at: node
            )
        }
        var environment: [String: String] = [:]
        if let node = section["environment"], case .mapping(let mapping) = node {
            for (key, value) in mapping {
                guard let name = reader.string(key, "an environment variable's name"),
                    let text = reader.string(value, "the value of \(name)")
                else { continue }
                environment[name] = text
            }
        } else if let node = section["environment"] {
            reader.error(
                "adapter.environment must be a mapping of variable names to values, not \(YAMLReader.describe(node))",
                at: node
            )
        }
        var library: String?
        if let node = section["faketime"], reader.bool(node, "adapter.faketime") == true {
            if let given = section["faketime_library"].flatMap({ reader.string($0, "adapter.faketime_library") }) {
                library = URL(fileURLWithPath: given, relativeTo: base).standardizedFileURL.path
                if !FileManager.default.fileExists(atPath: library!) {
                    reader.error(
                        "adapter.faketime_library \(library!) does not exist",
                        at: section["faketime_library"]!
                    )
                }
            } else {
                library = AdapterProfileLoader.fakeTimeLibraryCandidates.first {
                    FileManager.default.fileExists(atPath: $0)
                }
                if library == nil {
                    reader.error(
                        "adapter.faketime needs libfaketime, which is not installed (Debian: apt-get install faketime); "
                            + "or give its path in adapter.faketime_library",
                        at: node
                    )
                }
            }
        } else if let node = section["faketime_library"] {
            reader.error("adapter.faketime_library is used only with faketime: true", at: node)
        }
        guard let command else { return nil }
        return AdapterSection(
            command: command,
            directory: directory,
            environment: environment,
            fakeTimeLibrary: library,
            install: install
        )
    }

    /// Whether the program can be started: an executable file, by its path when it has a slash,
    /// else found on `PATH`, as the shell would.
    private static func isRunnable(_ program: String, directory: String) -> Bool {
        let manager = FileManager.default
        if program.contains("/") {
            return manager.isExecutableFile(
                atPath: URL(fileURLWithPath: program, relativeTo: URL(fileURLWithPath: directory + "/")).path
            )
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { manager.isExecutableFile(atPath: "\($0)/\(program)") }
    }

    /// `[python3, adapter.py]`, run as it is, or `python3 adapter.py`, run by `/bin/sh -c`. A
    /// relative program path (`.venv/bin/python`) is taken from the adapter's directory.
    private func commandLine(_ node: Node, directory: String) -> [String]? {
        if case .scalar = node {
            guard let text = reader.string(node, "adapter.command"), !text.trimmingCharacters(in: .whitespaces).isEmpty
            else {
                reader.error("adapter.command is empty", at: node)
                return nil
            }
            return ["/bin/sh", "-c", text]
        }
        guard let items = reader.sequence(node, "adapter.command") else { return nil }
        let words = items.compactMap { reader.string($0, "a word of adapter.command") }
        guard var program = words.first, words.count == items.count else {
            if items.isEmpty { reader.error("adapter.command is empty", at: node) }
            return nil
        }
        if program.contains("/") && !program.hasPrefix("/") {
            program =
                URL(fileURLWithPath: program, relativeTo: URL(fileURLWithPath: directory + "/")).standardizedFileURL
                .path
        }
        return [program] + words.dropFirst()
    }

    /// `never_expires`, or the lifetime the client assumes (`1h`).
    private func missingExpiresInPolicy(_ node: Node) -> MissingExpiresInPolicy? {
        if node.scalar?.string == "never_expires" { return .neverExpires }
        guard case .scalar(let scalar) = node, DurationText.parse(scalar.string).isSuccess else {
            reader.error(
                "missing_expires_in must be never_expires or the lifetime the client assumes (e.g. 1h), not \(YAMLReader.describe(node))",
                at: node
            )
            return nil
        }
        return reader.duration(node, "missing_expires_in").map(MissingExpiresInPolicy.assumedLifetime)
    }

    private func timeoutSection(_ node: Node) -> AdapterProfile.Timeouts {
        var timeouts = AdapterProfile.Timeouts()
        guard let section = reader.mapping(node, "timeouts", allowedKeys: AdapterProfileLoader.timeoutKeys) else {
            return timeouts
        }
        func positive(_ key: String) -> Duration? {
            guard let node = section[key], let value = reader.duration(node, "timeouts.\(key)") else { return nil }
            guard value > .zero else {
                reader.error("timeouts.\(key) must be longer than 0s", at: node)
                return nil
            }
            return value
        }
        if let start = positive("start") { timeouts.start = start }
        if let operation = positive("operation") { timeouts.operation = operation }
        if let scenario = positive("scenario") { timeouts.scenario = scenario }
        return timeouts
    }

    private func expectedFailureList(_ node: Node) -> [ExpectedFailure] {
        (reader.sequence(node, "expected_failures") ?? []).compactMap { item in
            guard
                let entry = reader.mapping(item, "an expected failure", allowedKeys: ["scenario", "reason", "probe"])
            else {
                return nil
            }
            let scenario = entry.required("scenario", hint: " (a scenario id; * matches any characters)").flatMap {
                reader.string($0, "scenario")
            }
            let reason = entry.required("reason", hint: " (the known gap, for the report)").flatMap {
                reader.string($0, "reason")
            }
            let probe = entry["probe"].flatMap { node -> ProbeCommand? in
                let words = reader.sequence(node, "probe")?.compactMap { reader.string($0, "a word of probe") }
                guard let words, !words.isEmpty else {
                    reader.error("probe is a program and its arguments: [.venv/bin/python, probes/x.py]", at: node)
                    return nil
                }
                return ProbeCommand(arguments: words, directory: base.standardizedFileURL.path)
            }
            guard let scenario, let reason, entry["probe"] == nil || probe != nil else { return nil }
            return ExpectedFailure(scenario: scenario, reason: reason, probe: probe)
        }
    }

    /// `application_part: [{family: proactive-refresh, reason: …}]`: the families the library
    /// leaves to the application, each named once.
    private func applicationPartList(_ node: Node) -> [ApplicationPart] {
        var parts: [ApplicationPart] = []
        for item in reader.sequence(node, "application_part") ?? [] {
            guard let entry = reader.mapping(item, "an application part", allowedKeys: ["family", "reason"]) else {
                continue
            }
            let family = entry.required("family", hint: " (a behaviour family's id, as scenarios name it)").flatMap {
                familyNode -> String? in
                guard let id = reader.string(familyNode, "family") else { return nil }
                guard BehaviourFamily.named(id) != nil else {
                    reader.error(
                        "no behaviour family is named \(id); the families: \(YAMLReader.list(BehaviourFamily.all.map(\.id)))",
                        at: familyNode
                    )
                    return nil
                }
                if parts.contains(where: { $0.family == id }) {
                    reader.error("application_part names \(id) twice", at: familyNode)
                    return nil
                }
                return id
            }
            let reason = entry.required(
                "reason",
                hint: " (what the library leaves to the application, and what the adapter does as its docs show)"
            ).flatMap { reader.string($0, "reason") }
            if let family, let reason { parts.append(ApplicationPart(family: family, reason: reason)) }
        }
        return parts
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
