import Foundation
import MockProvider

/// A client being judged, for one scenario: a fresh instance per scenario, so no state leaks
/// between scenarios. Implement it to test a Swift client in process.
///
/// The runner hands the client one `ClientCall` at a time and reads its `ClientAnswer`; only
/// `perform(_:)` and `shutdown()` are required. A client answers what it does not implement
/// with `call.unsupported`; a client that implements a call declares the call's
/// `requiredCapability`, and scenarios that need a capability the client lacks are skipped with
/// the reason.
///
/// ```swift
/// struct MyClient: ClientUnderTest {
///     let library: MyOAuthLibrary
///
///     func perform(_ call: ClientCall) async -> ClientAnswer {
///         switch call {
///         case .login(let grant): .outcome(await library.login(grant))
///         case .request(let method, let url): .outcome(await library.send(method, url))
///         default: call.unsupported
///         }
///     }
///
///     func shutdown() async { await library.close() }
/// }
/// ```
public protocol ClientUnderTest: Sendable {
    /// Does what the call asks, as the application would ask the client library.
    func perform(_ call: ClientCall) async -> ClientAnswer
    /// Makes the calls all at once, as a `concurrently` step asks: one outcome each, in order.
    /// Only calls that are `isBatchable` come this way. The default starts each call in a task
    /// of its own.
    func perform(concurrently calls: [ClientCall]) async -> [ClientOutcome]
    /// Virtual time moved (an `advance` step). An in-process client reads `ClientEnvironment.clock`
    /// whenever it likes; this is for a client with timers of its own, or one that must be told.
    func clockAdvanced() async
    /// Why the client can no longer be driven, once it cannot: an adapter process that crashed,
    /// printed something that is not the protocol, or did not answer in time. The runner asks
    /// after every step and ends the scenario with an error verdict that quotes this.
    func fault() async -> String?
    /// What the client printed during the scenario (an adapter's stderr), for the report.
    func capturedOutput() async -> String?
    /// Releases connections and other resources.
    func shutdown() async
}

extension ClientUnderTest {
    public func perform(concurrently calls: [ClientCall]) async -> [ClientOutcome] {
        await withTaskGroup(of: (Int, ClientOutcome).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask { (index, await perform(call).outcome(answering: call)) }
            }
            var outcomes: [(Int, ClientOutcome)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    public func clockAdvanced() async {}

    public func fault() async -> String? { nil }

    public func capturedOutput() async -> String? { nil }
}
