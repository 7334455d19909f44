import Foundation
import MockProvider

@testable import OAuthConformance

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client that holds every call for a moment and counts how many are in flight at once: the
/// proof that `concurrently` really overlaps its operations.
struct OverlapCountingClientFactory: ClientFactory {
    let counter = OverlapCounter()
    /// The call (counted from 1) that reports a failure, to see it surface in checks.
    var failingCall: Int?
    var profile: ClientProfile {
        ClientProfile(name: "overlap", version: "1", capabilities: [.concurrency], refreshWindow: nil)
    }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        OverlapCountingClient(
            inner: try await ReferenceClientFactory().makeClient(for: environment),
            counter: counter,
            failingCall: failingCall
        )
    }
}

actor OverlapCounter {
    private(set) var inFlight = 0
    private(set) var mostInFlight = 0
    private(set) var calls = 0

    func enter() -> Int {
        calls += 1
        inFlight += 1
        mostInFlight = max(mostInFlight, inFlight)
        return calls
    }

    func leave() { inFlight -= 1 }
}

/// The reference client, each of whose calls first holds for 300 ms in the counter; the call
/// numbered `failingCall` fails there instead of being made.
struct OverlapCountingClient: ClientUnderTest {
    let inner: any ClientUnderTest
    let counter: OverlapCounter
    let failingCall: Int?

    func perform(_ call: ClientCall) async -> ClientAnswer {
        switch call {
        case .login: return await inner.perform(call)
        case .request:
            let number = await counter.enter()
            try? await Task.sleep(for: .milliseconds(300))
            await counter.leave()
            guard number != failingCall else {
                return .outcome(.failure(ClientFailure(.transient, message: "call \(number) failed")))
            }
            return await inner.perform(call)
        default: return call.unsupported
        }
    }

    func shutdown() async { await inner.shutdown() }
}
