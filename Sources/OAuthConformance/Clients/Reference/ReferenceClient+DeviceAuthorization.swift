import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1
import NIOSSL

/// The device authorization grant (RFC 8628): what the user is shown, polling at the interval.
extension ReferenceClient {
    func startDeviceAuthorization() async -> Result<DevicePrompt, ClientFailure> {
        deviceAuthorization = nil
        let request: HTTPClientRequest
        switch await authenticatedPost(to: environment.endpoints.deviceAuthorization, []) {
        case .success(let built): request = built.0
        case .failure(let failure): return .failure(failure)
        }
        do {
            let answer = try await exchange(request)
            guard answer.status == 200 else {
                let error = JSONValue.parse(answer.body)?["error"]?.stringValue
                return .failure(
                    EndpointRefusal.failure(status: answer.status, error: error, endpoint: "device authorization")
                )
            }
            guard
                let session = DeviceAuthorizationSession(
                    response: answer.body,
                    receivedAt: now(),
                    behaviour: behaviour
                )
            else {
                return .failure(
                    ClientFailure(
                        .protocolViolation,
                        message: "the device authorization response lacks what RFC 8628 §3.2 requires"
                    )
                )
            }
            deviceAuthorization = session
            return .success(session.prompt)
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    func pollDeviceAuthorization() async -> ClientAnswer {
        guard var session = deviceAuthorization else {
            return .outcome(
                .failure(ClientFailure(.protocolViolation, message: "no device authorization is under way"))
            )
        }
        if session.isExpired(at: now()), behaviour.stopsPollingOnDenialOrExpiry {
            deviceAuthorization = nil
            return .outcome(
                .failure(
                    ClientFailure(
                        .authorizationRequired,
                        oauthError: "expired_token",
                        message: "the device code expired before the user acted"
                    )
                )
            )
        }
        let answer = await requestTokens(
            [("grant_type", GrantType.deviceCode.rawValue), ("device_code", session.deviceCode)],
            previous: nil
        )
        let next = session.next(after: answer)
        deviceAuthorization = session
        switch next {
        case .wait(let wait):
            return .pollAgain(after: wait)
        case .finished(.success(let tokens)):
            deviceAuthorization = nil
            replaceTokens(with: tokens, persisting: true)
            loginGrant = .deviceCode
            return .outcome(.success(status: 200, body: ""))
        case .finished(.failure(let failure)):
            deviceAuthorization = nil
            return .outcome(.failure(failure))
        }
    }
}
