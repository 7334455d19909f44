import Foundation
import MockProvider

/// The client under test, out of process: each operation is a message to the adapter, answered
/// by what the client library did. Every message carries the virtual time.
actor AdapterClient: ClientUnderTest {
    private let connection: AdapterConnection
    private let environment: ClientEnvironment
    private let timeout: Duration
    /// Hands the process back for the next scenario.
    private let release: @Sendable (AdapterConnection) async -> Void
    private var broken: AdapterFault?

    init(
        connection: AdapterConnection,
        environment: ClientEnvironment,
        timeout: Duration,
        release: @escaping @Sendable (AdapterConnection) async -> Void
    ) {
        self.connection = connection
        self.environment = environment
        self.timeout = timeout
        self.release = release
    }

    /// `reset`: forget the previous scenario, use this environment from now on.
    func start() async throws(AdapterFault) {
        await connection.clearOutput()
        let reply = await connection.ask(
            "reset",
            ["environment": environment.adapterMessageValue],
            now: environment.clock.now,
            timeout: timeout
        )
        switch reply {
        case .success(let reply) where reply.succeeded:
            return
        case .success(let reply):
            let message = reply.members["error"]?["message"]?.stringValue ?? "no reason given"
            throw AdapterFault("the adapter refused reset: \(message)")
        case .failure(let fault):
            let output = await connection.output()
            throw AdapterFault(
                fault.message + (output.map { "; its stderr ends: " + AdapterSupervisor.tail($0) } ?? "")
            )
        }
    }

    func login(_ grant: GrantType) async -> ClientOutcome {
        await outcome("login", ["grant": .string(grant.rawValue)])
    }

    func request(method: String, url: String) async -> ClientOutcome {
        await outcome("request", Self.fields(method: method, url: url))
    }

    func authorizationURL() async -> Result<String, ClientFailure> {
        await url(from: "authorization_url")
    }

    func completeAuthorization(redirectURL: String) async -> ClientOutcome {
        await outcome("complete_authorization", ["redirect_url": .string(redirectURL)])
    }

    func signInURL() async -> Result<String, ClientFailure> {
        await url(from: "sign_in_url")
    }

    func completeSignIn(redirectURL: String) async -> ClientOutcome {
        await outcome("complete_sign_in", ["redirect_url": .string(redirectURL)])
    }

    func exchangeSignIn() async -> ClientOutcome {
        await outcome("exchange")
    }

    /// `device_authorization`: `user_code`, `verification_uri` and, if shown, `verification_uri_complete`.
    func startDeviceAuthorization() async -> Result<DevicePrompt, ClientFailure> {
        let op = "device_authorization"
        guard let reply = await ask(op) else { return .failure(placeholder) }
        guard reply.succeeded else {
            switch reply.failure(of: op) {
            case .success(let failure): return .failure(failure)
            case .failure(let fault): return .failure(record(fault))
            }
        }
        guard let userCode = reply.members["user_code"]?.stringValue,
            let verificationURI = reply.members["verification_uri"]?.stringValue
        else {
            return .failure(record(AdapterFault("the adapter's answer to \(op) lacks user_code or verification_uri")))
        }
        return .success(
            DevicePrompt(
                userCode: userCode,
                verificationURI: verificationURI,
                verificationURIComplete: reply.members["verification_uri_complete"]?.stringValue
            )
        )
    }

    /// `device_poll`: `ok: true, wait: SECONDS` while the user has not acted, else an outcome.
    func pollDeviceAuthorization() async -> DevicePoll {
        let op = "device_poll"
        guard let reply = await ask(op) else { return .finished(.failure(placeholder)) }
        switch reply.devicePollWait(of: op) {
        case .success(let wait)?: return .waiting(wait)
        case .failure(let fault)?: return .finished(.failure(record(fault)))
        case nil: break
        }
        switch reply.outcome(of: op) {
        case .success(let outcome): return .finished(outcome)
        case .failure(let fault): return .finished(.failure(record(fault)))
        }
    }

    func userinfo() async -> ClientOutcome {
        await outcome("userinfo")
    }

    func identity() async -> SignedInIdentity? {
        guard let reply = await ask("identity") else { return nil }
        switch reply.identity() {
        case .success(let identity): return identity
        case .failure(let fault):
            _ = record(fault)
            return nil
        }
    }

    /// `authorization_url` and `sign_in_url`: the URL the browser is to open.
    private func url(from op: String) async -> Result<String, ClientFailure> {
        guard let reply = await ask(op) else { return .failure(placeholder) }
        guard reply.succeeded else {
            switch reply.failure(of: op) {
            case .success(let failure): return .failure(failure)
            case .failure(let fault): return .failure(record(fault))
            }
        }
        guard let url = reply.members["url"]?.stringValue else {
            return .failure(record(AdapterFault("the adapter's answer to \(op) has no url")))
        }
        return .success(url)
    }

    func restart() async -> ClientOutcome {
        await outcome("restart")
    }

    func storedTokens() async -> StoredTokens? {
        guard let reply = await ask("tokens") else { return nil }
        switch reply.storedTokens() {
        case .success(let tokens): return tokens
        case .failure(let fault):
            _ = record(fault)
            return nil
        }
    }

    /// One `concurrently` message: the adapter starts every operation at once and answers with
    /// an outcome for each, in order.
    func perform(concurrently calls: [ClientCall]) async -> [ClientOutcome] {
        let operations: [JSONValue] = calls.map { call in
            switch call {
            case .login(let grant): .object(["op": .string("login"), "grant": .string(grant.rawValue)])
            case .request(let method, let url):
                .object(Self.fields(method: method, url: url).merging(["op": .string("request")]) { $1 })
            case .restart: .object(["op": .string("restart")])
            }
        }
        // A batch may take as long as its operations one after another: a client that serialises
        // them, or a machine loaded by other jobs, is slow, not hung (and not a verdict to change
        // with --jobs); the scenario's own time bound still ends a batch that never answers.
        let batchTimeout = timeout * max(1, calls.count)
        guard let reply = await ask("concurrently", ["operations": .array(operations)], timeout: batchTimeout) else {
            return Array(repeating: .failure(placeholder), count: calls.count)
        }
        switch reply.outcomes(count: calls.count) {
        case .success(let outcomes): return outcomes
        case .failure(let fault): return Array(repeating: .failure(record(fault)), count: calls.count)
        }
    }

    func clockAdvanced() async {
        _ = await ask("advance")
    }

    func fault() async -> String? { broken?.message }

    func capturedOutput() async -> String? { await connection.output() }

    /// `end`: the adapter closes its client's connections; the process stays for the next
    /// scenario, which starts with `reset`. Its answer is checked like any other: a hang, a crash,
    /// garbage, a wrong id or a refusal is a fault, which the runner reports after the scenario.
    func shutdown() async {
        if let reply = await ask("end"), !reply.succeeded {
            let message = reply.members["error"]?["message"]?.stringValue ?? "no reason given"
            _ = record(AdapterFault("the adapter refused end: \(message)"))
            await connection.stop()
        }
        await release(connection)
    }

    // MARK: Messages

    private func ask(
        _ op: String,
        _ fields: [String: JSONValue] = [:],
        timeout: Duration? = nil
    ) async -> AdapterReply? {
        if broken != nil { return nil }
        switch await connection.ask(op, fields, now: environment.clock.now, timeout: timeout ?? self.timeout) {
        case .success(let reply): return reply
        case .failure(let fault):
            _ = record(fault)
            return nil
        }
    }

    private func outcome(_ op: String, _ fields: [String: JSONValue] = [:]) async -> ClientOutcome {
        guard let reply = await ask(op, fields) else { return .failure(placeholder) }
        switch reply.outcome(of: op) {
        case .success(let outcome): return outcome
        case .failure(let fault): return .failure(record(fault))
        }
    }

    /// Keeps the first fault; the runner asks for it after the step and ends the scenario.
    private func record(_ fault: AdapterFault) -> ClientFailure {
        if broken == nil { broken = fault }
        return placeholder
    }

    /// What an operation reports once the adapter is broken; the runner never judges it.
    private var placeholder: ClientFailure {
        ClientFailure(.protocolViolation, message: "adapter fault: \(broken?.message ?? "unknown")")
    }

    private static func fields(method: String, url: String) -> [String: JSONValue] {
        ["method": .string(method), "url": .string(url), "headers": .object([:]), "body": .null]
    }
}

/// Runs a client library through its adapter process, as a client profile file describes it.
/// One process serves the whole run; call `stop()` when the run is over.
public final class AdapterClientFactory: ClientFactory {
    public let adapterProfile: AdapterProfile
    private let supervisor: AdapterSupervisor

    public init(profile: AdapterProfile) {
        adapterProfile = profile
        supervisor = AdapterSupervisor(profile: profile)
    }

    /// The profile file's declarations, with the name and version the adapter gave in `hello`
    /// (the version reads `unknown` until an adapter has answered).
    public var profile: ClientProfile {
        let identity = supervisor.identity.withLock { $0 }
        return ClientProfile(
            name: adapterProfile.name ?? identity?.name ?? "adapter",
            version: identity?.version ?? "unknown",
            capabilities: adapterProfile.effectiveCapabilities,
            refreshWindow: adapterProfile.refreshWindow,
            missingExpiresIn: adapterProfile.missingExpiresIn,
            idTokenClockSkew: adapterProfile.idTokenClockSkew,
            jwksRefetchInterval: adapterProfile.jwksRefetchInterval,
            expectedFailures: adapterProfile.expectedFailures
        )
    }

    public func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        let supervisor = self.supervisor
        let connection = try await supervisor.lease()
        let client = AdapterClient(
            connection: connection,
            environment: environment,
            timeout: adapterProfile.timeouts.operation,
            release: { await supervisor.release($0) }
        )
        do {
            try await client.start()
        } catch {
            await supervisor.release(connection)
            throw error
        }
        return client
    }

    /// Shuts the adapter down: `shutdown`, end of input, then its process group is killed.
    public func stop() async {
        await supervisor.stop()
    }
}
