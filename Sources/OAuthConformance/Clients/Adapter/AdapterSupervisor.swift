import Foundation
import MockProvider
import Synchronization

/// Keeps adapter processes for a whole run, since starting one can cost a second and a suite has
/// dozens of scenarios: launches one, shakes hands, lends it to each scenario in turn, and
/// launches a new one after a fault, or when scenarios run side by side. An adapter that fails
/// its start is not launched again: every later scenario gets the same error at once instead of
/// waiting for it anew.
actor AdapterSupervisor {
    let profile: AdapterProfile
    /// What the adapter said in `hello`, readable without waiting (for `ClientFactory.profile`).
    let identity = Mutex<AdapterIdentity?>(nil)
    /// Live processes no scenario is using.
    private var idle: [AdapterConnection] = []
    /// Every process launched and not yet known dead, for `stop`.
    private var launched: [AdapterConnection] = []
    private var startFailure: AdapterFault?
    private var launches = 0
    private let scratch: URL

    init(profile: AdapterProfile) {
        self.profile = profile
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "oauth-conformance-adapter-\(UUID().uuidString)"
        )
    }

    /// A live, greeted adapter for one scenario, until `release`.
    func lease() async throws(AdapterFault) -> AdapterConnection {
        while let candidate = idle.popLast() {
            if await candidate.isAlive { return candidate }
            forget(candidate)
        }
        if let startFailure { throw startFailure }
        do {
            let started = try await launch()
            launched.append(started)
            return started
        } catch {
            startFailure = error
            throw error
        }
    }

    /// The scenario is over; a process that is still sound serves the next one.
    func release(_ connection: AdapterConnection) async {
        if await connection.isAlive { idle.append(connection) } else { forget(connection) }
    }

    func stop() async {
        for connection in launched { await connection.stop() }
        launched = []
        idle = []
        try? FileManager.default.removeItem(at: scratch)
    }

    private func forget(_ connection: AdapterConnection) {
        launched.removeAll { $0 === connection }
    }

    private func launch() async throws(AdapterFault) -> AdapterConnection {
        launches += 1
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw AdapterFault("could not create \(scratch.path): \(error)")
        }
        let stderrFile = scratch.appendingPathComponent("stderr-\(launches)").path
        var environment = ProcessInfo.processInfo.environment.merging(profile.environment) { _, declared in declared }
        var fakeTimeFile: String?
        if let library = profile.fakeTimeLibrary {
            let file = scratch.appendingPathComponent("faketime-\(launches)").path
            do {
                try FakeTimeFile.write(Date(), to: file)
            } catch {
                throw AdapterFault("could not write the faketime file: \(error)")
            }
            environment.merge(FakeTimeFile.environment(library: library, file: file, inheriting: environment)) {
                _,
                faked in faked
            }
            fakeTimeFile = file
        }
        let process: SupervisedProcess
        do {
            process = try SupervisedProcess(
                .init(
                    arguments: profile.command,
                    directory: profile.directory,
                    environment: environment,
                    stderrFile: stderrFile
                )
            )
        } catch {
            throw AdapterFault("\(error)")
        }
        let connection = AdapterConnection(process: process, stderrFile: stderrFile, fakeTimeFile: fakeTimeFile)
        let hello: [String: JSONValue] = [
            "protocol": .integer(AdapterProtocol.version), "harness": .string("oauth-conformance \(Harness.version)"),
        ]
        let greeted = await connection.ask(.hello, hello, now: nil, timeout: profile.timeouts.start)
            .flatMap(AdapterIdentity.parse)
            .flatMap(checkCapabilities)
        switch greeted {
        case .success(let greeting):
            identity.withLock { $0 = greeting }
            return connection
        case .failure(let fault):
            let output = await connection.output()
            await connection.stop()
            throw AdapterFault(fault.message + (output.map { "; its stderr ends: " + Self.tail($0) } ?? ""))
        }
    }

    /// A profile may claim only what the adapter says it can do; libfaketime supplies a virtual
    /// clock, and `policies.id_token_signature` and `policies.dpop_downgrade` the capabilities they declare.
    private func checkCapabilities(_ identity: AdapterIdentity) -> Result<AdapterIdentity, AdapterFault> {
        // The signature policy is the profile's declaration, not something the adapter offers.
        let offered = Set(identity.capabilities).union(
            profile.fakeTimeLibrary == nil ? [] : [Capability.virtualClock.rawValue]
        ).union(Capability.declaredByPolicy.map(\.rawValue))
        let unbacked = profile.capabilities.map(\.rawValue).filter { !offered.contains($0) }.sorted()
        guard unbacked.isEmpty else {
            return .failure(
                AdapterFault(
                    "the profile declares \(unbacked.joined(separator: ", ")), which the adapter's hello does not offer (it offers \(identity.capabilities.sorted().joined(separator: ", ")))"
                )
            )
        }
        return .success(identity)
    }

    /// The end of a stderr text, short enough for an error message.
    static func tail(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.count > 2_000 ? "…" + trimmed.suffix(2_000) : trimmed
    }
}
