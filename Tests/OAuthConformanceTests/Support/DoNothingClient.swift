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
    func perform(_ call: ClientCall) async -> ClientAnswer {
        switch call {
        case .login, .request, .mcpCall, .completeAuthorization, .completeSignIn, .finishNativeSignIn, .userinfo,
            .exchangeSignIn, .restart, .restoreSession:
            .outcome(.success(status: 200, body: "{}"))
        case .authorizationURL, .mcpAuthorizationURL, .signInURL:
            .browserURL("http://127.0.0.1:1/nowhere")
        case .beginNativeSignIn:
            .openURL("http://127.0.0.1:1/nowhere")
        case .startDeviceAuthorization:
            .outcome(.failure(ClientFailure(.protocolViolation, message: "nothing was asked")))
        case .pollDeviceAuthorization, .identity, .storedTokens:
            call.unsupported
        }
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
