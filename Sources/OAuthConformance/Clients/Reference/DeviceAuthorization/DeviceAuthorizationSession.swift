import Foundation
import MockProvider

/// One device authorization of the reference client and the polling rules of RFC 8628 §3.4–3.5:
/// the interval the provider gave (5 seconds when it gave none), 5 seconds more for every
/// `slow_down`, a stop at `access_denied`, at `expired_token` and once the code's own `expires_in`
/// has passed, and a bounded exponential back-off after transient failures. It decides; the
/// client does the HTTP.
struct DeviceAuthorizationSession: Sendable {
    enum Next: Sendable {
        case wait(Duration)
        case finished(Result<TokenSet, ClientFailure>)
    }

    let deviceCode: String
    let prompt: DevicePrompt
    let expiresAt: Date
    private(set) var interval: Duration
    private var transientFailures = 0
    private let behaviour: ClientBehaviour

    /// Transient failures in a row after which the polling gives up.
    static let mostTransientFailures = 5

    /// RFC 8628 §3.2's response; `nil` when it lacks what a client needs.
    init?(response body: String, receivedAt: Date, behaviour: ClientBehaviour) {
        guard case .object(let members)? = JSONValue.parse(body),
            let deviceCode = members["device_code"]?.stringValue, let userCode = members["user_code"]?.stringValue,
            let verificationURI = members["verification_uri"]?.stringValue,
            case .integer(let expiresIn)? = members["expires_in"], expiresIn > 0
        else { return nil }
        self.deviceCode = deviceCode
        // The defect composes a complete URI the provider never gave, guessing its form.
        let composed = behaviour.showsOnlyIssuedURIs ? nil : "\(verificationURI)?user_code=\(userCode)"
        self.prompt = DevicePrompt(
            userCode: userCode,
            verificationURI: verificationURI,
            verificationURIComplete: members["verification_uri_complete"]?.stringValue ?? composed
        )
        self.expiresAt = receivedAt.addingTimeInterval(TimeInterval(expiresIn))
        if case .integer(let seconds)? = members["interval"], seconds > 0 {
            self.interval = .seconds(seconds)
        } else {
            self.interval = .seconds(5)
        }
        self.behaviour = behaviour
    }

    /// The wait before the next poll, as the client honours it.
    private var pollingWait: Duration { behaviour.honoursPollingInterval ? interval : .seconds(1) }

    func isExpired(at now: Date) -> Bool { now >= expiresAt }

    /// What one poll's answer means.
    mutating func next(after answer: Result<TokenSet, ClientFailure>) -> Next {
        switch answer {
        case .success:
            return .finished(answer)
        case .failure(let failure) where failure.oauthError == "authorization_pending":
            transientFailures = 0
            return .wait(pollingWait)
        case .failure(let failure) where failure.oauthError == "slow_down":
            transientFailures = 0
            if behaviour.slowsDownWhenAsked { interval += .seconds(5) }
            return .wait(pollingWait)
        case .failure(let failure) where failure.oauthError == "access_denied" || failure.oauthError == "expired_token":
            guard behaviour.stopsPollingOnDenialOrExpiry else { return .wait(pollingWait) }
            return .finished(
                .failure(
                    ClientFailure(
                        .authorizationRequired,
                        oauthError: failure.oauthError,
                        message: failure.oauthError == "access_denied"
                            ? "the user denied the device authorization" : "the device code expired"
                    )
                )
            )
        case .failure(let failure) where failure.category == .transient:
            transientFailures += 1
            guard transientFailures < Self.mostTransientFailures else { return .finished(answer) }
            // RFC 8628 §3.5: back off exponentially after a failure to reach the server.
            return .wait(behaviour.backsOffAfterFailedPolls ? pollingWait * (1 << transientFailures) : pollingWait)
        case .failure:
            return .finished(answer)
        }
    }
}
