import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1
import NIOSSL

/// Calling the resource as the application would: the token attached, a 401 recovered once.
extension ReferenceClient {
    func request(method: String, url: String) async -> ClientOutcome {
        if AppServerSession.isSameOrigin(url, as: environment.endpoints.appServerToken) {
            guard let appServerSession else {
                return .failure(
                    ClientFailure(
                        .authorizationRequired,
                        message: "no session at the app server: exchange the sign-in first"
                    )
                )
            }
            return await appServerSession.request(method: method, url: url)
        }
        switch await callResource(method: method, url: url) {
        case .success(let answer): return .success(status: answer.status, body: answer.body)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// The resource's last answer to the call, a 401 recovered as the behaviour says; `body`, when
    /// given, is sent as JSON (an MCP message).
    func callResource(method: String, url: String, body: String? = nil) async -> Result<Answer, ClientFailure> {
        guard behaviour.callsTheResource else {
            return .failure(ClientFailure(.protocolViolation, message: "the call was not sent"))
        }
        var sentToken: String
        switch await usableAccessToken() {
        case .success(let token): sentToken = token
        case .failure where !behaviour.keepsTokensWhenRefreshFails && tokens == nil:
            // The defect's application carries on without a token, as if the call needed none.
            return await sendUnauthenticated(method: method, url: url, body: body)
        case .failure(let failure): return .failure(failure)
        }
        do {
            var answer = try await send(method: method, url: url, bearer: sentToken, body: body)
            var rounds = 0
            while isRecoverable(answer) {
                guard rounds < behaviour.replayRoundsPer401 else {
                    return .failure(
                        ClientFailure(
                            .authorizationRequired,
                            message: "the resource rejected the refreshed access token too (\(answer.status))"
                        )
                    )
                }
                rounds += 1
                let replayToken: String
                switch behaviour.unauthorizedRecovery {
                case .none:
                    return .failure(
                        ClientFailure(.authorizationRequired, message: "the resource rejected the access token (401)")
                    )
                case .refreshAndReplayOnce, .replayWithStaleToken:
                    // RR-06: a concurrent request may already have replaced the rejected token.
                    if behaviour.replaysStaleCredentialWithoutRefresh, let current = tokens?.accessToken,
                        current != sentToken
                    {
                        replayToken = current
                    } else {
                        switch await refresh() {
                        case .success(let refreshed): replayToken = refreshed.accessToken
                        case .failure where behaviour.replaysAfterFailedRefresh: replayToken = sentToken
                        case .failure(let failure): return .failure(failure)
                        }
                    }
                }
                sentToken = behaviour.unauthorizedRecovery == .replayWithStaleToken ? sentToken : replayToken
                answer = try await send(method: method, url: url, bearer: sentToken, body: body)
            }
            if rounds > 0, answer.status == 401 {
                return .failure(
                    ClientFailure(
                        .authorizationRequired,
                        message: "the resource rejected the refreshed access token too (401)"
                    )
                )
            }
            return .success(answer)
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    func sendUnauthenticated(method: String, url: String, body: String? = nil) async -> Result<Answer, ClientFailure> {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        Self.attach(json: body, to: &request)
        do {
            return .success(try await exchange(request))
        } catch {
            return .failure(Self.transportFailure(error))
        }
    }

    /// An MCP message goes as JSON, and the client takes a JSON answer or an event stream
    /// (Streamable HTTP).
    static func attach(json body: String?, to request: inout HTTPClientRequest) {
        guard let body else { return }
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json, text/event-stream")
        request.body = .bytes(ByteBuffer(string: body))
    }

    /// A 401 `invalid_token` can be cured by a new token; a 403 `insufficient_scope` cannot (RFC 6750 §3.1).
    func isRecoverable(_ answer: Answer) -> Bool {
        switch answer.status {
        case 401: Self.isInvalidTokenChallenge(answer.headers)
        case 403:
            behaviour.refreshesOnInsufficientScope
                && answer.headers["WWW-Authenticate"].contains { $0.lowercased().contains("insufficient_scope") }
        default: false
        }
    }
}
