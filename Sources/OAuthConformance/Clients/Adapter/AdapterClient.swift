import Foundation
import MockProvider

/// The client under test, out of process: each call is a message to the adapter, answered by
/// what the client library did. Every message carries the virtual time.
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
            .reset,
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

    func perform(_ call: ClientCall) async -> ClientAnswer {
        guard let reply = await ask(call.op, call.fields) else { return call.failed(placeholder) }
        switch reply.answer(to: call) {
        case .success(let answer): return answer
        case .failure(let fault): return call.failed(record(fault))
        }
    }

    /// One `concurrently` message: the adapter starts every operation at once and answers with
    /// an outcome for each, in order.
    func perform(concurrently calls: [ClientCall]) async -> [ClientOutcome] {
        // A batch may take as long as its operations one after another: a client that serialises
        // them, or a machine loaded by other jobs, is slow, not hung (and not a verdict to change
        // with --jobs); the scenario's own time bound still ends a batch that never answers.
        let batchTimeout = timeout * max(1, calls.count)
        let operations = calls.map(\.batchOperation)
        guard let reply = await ask(.concurrently, ["operations": .array(operations)], timeout: batchTimeout) else {
            return Array(repeating: .failure(placeholder), count: calls.count)
        }
        switch reply.outcomes(count: calls.count) {
        case .success(let outcomes): return outcomes
        case .failure(let fault): return Array(repeating: .failure(record(fault)), count: calls.count)
        }
    }

    func clockAdvanced() async {
        _ = await ask(.advance)
    }

    func fault() async -> String? { broken?.message }

    func capturedOutput() async -> String? { await connection.output() }

    /// `end`: the adapter closes its client's connections; the process stays for the next
    /// scenario, which starts with `reset`. Its answer is checked like any other: a hang, a crash,
    /// garbage, a wrong id or a refusal is a fault, which the runner reports after the scenario.
    func shutdown() async {
        if let reply = await ask(.end), !reply.succeeded {
            let message = reply.members["error"]?["message"]?.stringValue ?? "no reason given"
            _ = record(AdapterFault("the adapter refused end: \(message)"))
            await connection.stop()
        }
        await release(connection)
    }

    // MARK: Messages

    private func ask(
        _ op: AdapterOp,
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

    /// Keeps the first fault; the runner asks for it after the step and ends the scenario.
    private func record(_ fault: AdapterFault) -> ClientFailure {
        if broken == nil { broken = fault }
        return placeholder
    }

    /// What an operation reports once the adapter is broken; the runner never judges it.
    private var placeholder: ClientFailure {
        ClientFailure(.protocolViolation, message: "adapter fault: \(broken?.message ?? "unknown")")
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
        var profile = adapterProfile.declared
        profile.name = adapterProfile.name ?? identity?.name ?? "adapter"
        profile.version = identity?.version ?? "unknown"
        profile.capabilities = adapterProfile.effectiveCapabilities
        return profile
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

    /// Starts the adapter and waits for its `hello`, before any scenario: an adapter whose library
    /// is missing, or that crashes at its start, is one clear problem, not an error per scenario.
    /// The greeted process serves the first scenario. The message names what to run to install it.
    public func greet() async throws(AdapterStartFailure) {
        do {
            await supervisor.release(try await supervisor.lease())
        } catch {
            throw AdapterStartFailure(fault: error.message, install: adapterProfile.install)
        }
    }
}

/// An adapter that did not start, or did not answer `hello` as the protocol says.
public struct AdapterStartFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong: the exit, the garbage or the silence, and the end of its stderr.
    public var fault: String
    /// `adapter.install` of its profile, when it says how to install the adapter.
    public var install: String?

    public var description: String {
        "the adapter did not start: \(fault)"
            + (install.map { "\ninstall it and its library first: \($0)" }
                ?? "\ninstall its library, or correct adapter.command")
    }
}
