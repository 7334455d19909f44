import Foundation
import MockProvider

@testable import OAuthConformance

/// The reference client made slow and one-at-a-time: each request first waits its turn and then
/// `pause` of real time, as in a library that serialises its calls behind one lock.
struct SerialisingClientFactory: ClientFactory {
    let pause: Duration
    var profile: ClientProfile { ReferenceClientFactory().profile.renamed("serialising") }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        SerialisingClient(inner: try await ReferenceClientFactory().makeClient(for: environment), pause: pause)
    }
}

actor SerialisingClient: ClientUnderTest {
    let inner: any ClientUnderTest
    let pause: Duration
    /// The pause of the latest request; the next one starts its own after it.
    private var lastTurn: Task<Void, Never>?

    init(inner: any ClientUnderTest, pause: Duration) {
        self.inner = inner
        self.pause = pause
    }

    func perform(_ call: ClientCall) async -> ClientAnswer {
        switch call {
        case .login: break
        case .request: await takeTurn()
        default: return call.unsupported
        }
        return await inner.perform(call)
    }

    private func takeTurn() async {
        let previous = lastTurn
        let pause = self.pause
        let turn = Task {
            await previous?.value
            try? await Task.sleep(for: pause)
        }
        lastTurn = turn
        await turn.value
    }

    func shutdown() async { await inner.shutdown() }
}
