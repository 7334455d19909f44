import Foundation
import MockProvider

@testable import OAuthConformance

/// A client that answers every operation with success and sends nothing: what a broken adapter,
/// or a library that never reaches the network, looks like to the harness. It declares everything
/// the reference client does, so no scenario is skipped for it; no scenario may pass it.
struct DoNothingClientFactory: ClientFactory {
    var profile: ClientProfile { ReferenceClientFactory().profile.renamed("do-nothing") }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        DoNothingClient()
    }
}

struct DoNothingClient: ClientUnderTest {
    private static let done = ClientOutcome.success(status: 200, body: "{}")

    func login(_ grant: GrantType) async -> ClientOutcome { Self.done }
    func request(method: String, url: String) async -> ClientOutcome { Self.done }
    func authorizationURL() async -> Result<String, ClientFailure> { .success("http://127.0.0.1:1/nowhere") }
    func completeAuthorization(redirectURL: String) async -> ClientOutcome { Self.done }
    func signInURL() async -> Result<String, ClientFailure> { .success("http://127.0.0.1:1/nowhere") }
    func completeSignIn(redirectURL: String) async -> ClientOutcome { Self.done }
    func userinfo() async -> ClientOutcome { Self.done }
    func exchangeSignIn() async -> ClientOutcome { Self.done }
    func restart() async -> ClientOutcome { Self.done }
    func startDeviceAuthorization() async -> Result<DevicePrompt, ClientFailure> {
        .failure(ClientFailure(.protocolViolation, message: "nothing was asked"))
    }
    func shutdown() async {}
}

extension ClientProfile {
    /// The same declarations under another name.
    func renamed(_ name: String) -> ClientProfile {
        var renamed = self
        renamed.name = name
        return renamed
    }
}
