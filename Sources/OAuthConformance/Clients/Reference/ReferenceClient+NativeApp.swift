import Foundation
import NIOCore

/// A native app's sign-in (RFC 8252): the code flow of `ReferenceClient+AuthorizationCode`, its
/// redirect received by a loopback listener of the client's own on a port the system chose
/// (§7.3), the registered loopback redirect URI with that port. PKCE S256, `state` and `iss` are
/// checked, and the code redeemed, by that flow's own code.
extension ReferenceClient {
    /// How long the interactive sign-in waits for the browser to come back, in real time.
    static let nativeSignInWait = TimeAmount.seconds(30)

    /// Starts listening, then names the authorization URL the app would ask the system to open.
    func beginNativeSignIn() async -> Result<String, ClientFailure> {
        // A sign-in begun again replaces the one still waiting, as an app's second tap would.
        await nativeListener?.close()
        nativeListener = nil
        guard var redirect = URLComponents(string: environment.redirectURI), redirect.scheme == "http",
            redirect.host == "127.0.0.1"
        else {
            return .failure(
                ClientFailure(
                    .unexpected,
                    message:
                        "the registered redirect URI \(environment.redirectURI) is no http://127.0.0.1 one, where a native app listens (RFC 8252 §7.3)"
                )
            )
        }
        let listener: LoopbackListener
        do {
            listener = try await LoopbackListener.start(path: redirect.path.isEmpty ? "/" : redirect.path)
        } catch {
            return .failure(ClientFailure(.unexpected, message: "could not listen on 127.0.0.1: \(error)"))
        }
        redirect.port = listener.port
        if !behaviour.namesLoopbackByAddress { redirect.host = "localhost" }
        let redirectURI = redirect.string ?? environment.redirectURI
        let url = await startAuthorization(nonce: nil, redirectURI: redirectURI)
        if case .success = url {
            nativeListener = listener
        } else {
            await listener.close()
        }
        return url
    }

    /// Waits for the browser's redirect to reach the listener, then completes the flow as a
    /// redirect handed to the client would.
    func finishNativeSignIn() async -> ClientOutcome {
        guard let listener = nativeListener, let redirectURI = pendingAuthorization?.redirectURI else {
            return .failure(
                ClientFailure(.protocolViolation, message: "no native app sign-in is waiting for its redirect")
            )
        }
        nativeListener = nil
        guard let target = await listener.redirectTarget(within: Self.nativeSignInWait) else {
            pendingAuthorization = nil
            return .failure(
                ClientFailure(
                    .unexpected,
                    message:
                        "no redirect reached the loopback listener within \(Self.nativeSignInWait.nanoseconds / 1_000_000_000) s"
                )
            )
        }
        let origin = URLComponents(string: redirectURI).map { "http://\($0.host ?? "127.0.0.1"):\(listener.port)" }
        return await completeAuthorization(redirectURL: (origin ?? redirectURI) + target)
    }
}
