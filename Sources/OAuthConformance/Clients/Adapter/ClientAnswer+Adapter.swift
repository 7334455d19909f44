import Foundation
import MockProvider

/// An answer as the adapter protocol carries it (docs/adapter-protocol/messages.md): what the
/// reference adapter writes, and how the harness reads any adapter's answer to a call, side by
/// side so the two cannot part.
extension ClientAnswer {
    /// The answer's members besides `id`.
    package var replyMembers: [String: JSONValue] {
        switch self {
        case .outcome(.success(let status, let body)):
            ["ok": .bool(true), "status": .integer(status), "body": .string(body)]
        case .outcome(.failure(let failure)):
            ["ok": .bool(false), "error": Self.error(failure)]
        case .browserURL(let url):
            ["ok": .bool(true), "url": .string(url)]
        case .needsAuthorization(let url):
            ["ok": .bool(true), "authorization_url": .string(url)]
        case .openURL(let url):
            ["ok": .bool(true), "open_url": .string(url)]
        case .devicePrompt(let prompt):
            [
                "ok": .bool(true), "user_code": .string(prompt.userCode),
                "verification_uri": .string(prompt.verificationURI),
                "verification_uri_complete": prompt.verificationURIComplete.map(JSONValue.string) ?? .null,
            ]
        case .pollAgain(let wait):
            ["ok": .bool(true), "wait": .number(wait.seconds)]
        case .identity(let identity):
            [
                "ok": .bool(true),
                "identity": identity.map { .object(["iss": .string($0.issuer), "sub": .string($0.subject)]) } ?? .null,
            ]
        case .storedTokens(let tokens):
            [
                "ok": .bool(true),
                "tokens": tokens.map { tokens in
                    .object([
                        "access_token": .string(tokens.accessToken),
                        "refresh_token": tokens.refreshToken.map(JSONValue.string) ?? .null,
                        "expires_at": tokens.expiresAt.map { .number($0.timeIntervalSince1970) } ?? .null,
                    ])
                } ?? .null,
            ]
        }
    }

    /// The `error` object of an `ok: false` answer: what the client surfaced.
    package static func error(_ failure: ClientFailure) -> JSONValue {
        var error: [String: JSONValue] = [
            "category": .string(failure.category.rawValue), "message": .string(failure.message),
        ]
        if let code = failure.oauthError { error["oauth_error"] = .string(code) }
        if let status = failure.status { error["status"] = .integer(status) }
        if let type = failure.errorType { error["type"] = .string(type) }
        return .object(error)
    }
}

extension AdapterReply {
    /// The answer to `call`, as `ClientUnderTest.perform(_:)` gives it; a fault when the adapter
    /// broke the protocol.
    func answer(to call: ClientCall) -> Result<ClientAnswer, AdapterFault> {
        let op = call.op.rawValue
        switch call {
        case .login, .request, .mcpCall, .restart, .completeAuthorization, .completeSignIn, .finishNativeSignIn,
            .userinfo, .exchangeSignIn, .restoreSession:
            // The library needs the user inside the call: the harness's browser comes next.
            if succeeded, let url = members["authorization_url"]?.stringValue {
                return .success(.needsAuthorization(url: url))
            }
            return outcome(of: op).map(ClientAnswer.outcome)
        case .authorizationURL, .mcpAuthorizationURL, .signInURL:
            return succeeded ? browserURL(of: op) : failure(of: op).map(call.failed)
        case .beginNativeSignIn:
            return succeeded ? openURL(of: op) : failure(of: op).map(call.failed)
        case .startDeviceAuthorization:
            return succeeded ? devicePrompt(of: op) : failure(of: op).map(call.failed)
        case .pollDeviceAuthorization:
            switch devicePollWait(of: op) {
            case .success(let wait)?: return .success(.pollAgain(after: wait))
            case .failure(let fault)?: return .failure(fault)
            case nil: return outcome(of: op).map(ClientAnswer.outcome)
            }
        case .identity:
            return identity().map(ClientAnswer.identity)
        case .storedTokens:
            return storedTokens().map(ClientAnswer.storedTokens)
        }
    }

    /// `authorization_url` and `sign_in_url`: the URL the browser is to open.
    private func browserURL(of op: String) -> Result<ClientAnswer, AdapterFault> {
        guard let url = members["url"]?.stringValue else {
            return .failure(AdapterFault("the adapter's answer to \(op) has no url"))
        }
        return .success(.browserURL(url))
    }

    /// `begin_native_sign_in`: the URL the library asked the system to open.
    private func openURL(of op: String) -> Result<ClientAnswer, AdapterFault> {
        guard let url = members["open_url"]?.stringValue else {
            return .failure(AdapterFault("the adapter's answer to \(op) has no open_url"))
        }
        return .success(.openURL(url))
    }

    /// `device_authorization`: `user_code`, `verification_uri` and, if shown, `verification_uri_complete`.
    private func devicePrompt(of op: String) -> Result<ClientAnswer, AdapterFault> {
        guard let userCode = members["user_code"]?.stringValue,
            let verificationURI = members["verification_uri"]?.stringValue
        else {
            return .failure(AdapterFault("the adapter's answer to \(op) lacks user_code or verification_uri"))
        }
        return .success(
            .devicePrompt(
                DevicePrompt(
                    userCode: userCode,
                    verificationURI: verificationURI,
                    verificationURIComplete: members["verification_uri_complete"]?.stringValue
                )
            )
        )
    }
}
