import Foundation
import MockProvider

/// A call as the adapter protocol carries it: its `op` and the fields beside it. The harness
/// encodes calls here and the reference adapter decodes them here, so the two read one table.
extension ClientCall {
    var op: AdapterOp {
        switch self {
        case .login: .login
        case .request, .mcpCall: .request
        case .restart: .restart
        case .authorizationURL: .authorizationURL
        case .mcpAuthorizationURL: .mcpAuthorizationURL
        case .completeAuthorization: .completeAuthorization
        case .signInURL: .signInURL
        case .completeSignIn: .completeSignIn
        case .beginNativeSignIn: .beginNativeSignIn
        case .finishNativeSignIn: .finishNativeSignIn
        case .userinfo: .userinfo
        case .exchangeSignIn: .exchange
        case .startDeviceAuthorization: .deviceAuthorization
        case .pollDeviceAuthorization: .devicePoll
        case .identity: .identity
        case .storedTokens: .tokens
        case .restoreSession: .restoreTokens
        }
    }

    /// The message's fields besides `id`, `op` and `now`.
    var fields: [String: JSONValue] {
        switch self {
        case .login(let grant): ["grant": .string(grant.rawValue)]
        case .request(let method, let url):
            ["method": .string(method), "url": .string(url), "headers": .object([:]), "body": .null]
        case .mcpCall(let method, let url):
            // A plain HTTP client can POST the body as it stands; an MCP library's adapter makes
            // its session's call for `mcp_method` instead (docs/adapter-protocol/messages.md).
            [
                "method": .string("POST"), "url": .string(url),
                "headers": .object([
                    "Content-Type": .string("application/json"),
                    "Accept": .string("application/json, text/event-stream"),
                ]),
                "body": .string(MCPRequestMessage.body(method: method)), "mcp_method": .string(method),
            ]
        case .completeAuthorization(let redirectURL), .completeSignIn(let redirectURL):
            ["redirect_url": .string(redirectURL)]
        case .restoreSession(let saved):
            [
                "access_token": .string(saved.accessToken),
                "token_type": .string(saved.tokenType),
                "refresh_token": saved.refreshToken.map(JSONValue.string) ?? .null,
                "expires_at": saved.expiresAt.map { .number(AdapterRequest.unixSeconds($0)) } ?? .null,
                "scope": saved.scope.map(JSONValue.string) ?? .null,
            ]
        case .restart, .authorizationURL, .mcpAuthorizationURL, .signInURL, .beginNativeSignIn, .finishNativeSignIn,
            .userinfo,
            .exchangeSignIn, .startDeviceAuthorization, .pollDeviceAuthorization, .identity, .storedTokens:
            [:]
        }
    }

    /// The call as one operation of a `concurrently` message: its `op` among its fields.
    var batchOperation: JSONValue {
        .object(fields.merging(["op": .string(op.rawValue)]) { $1 })
    }

    /// The call a message asks for; `nil` when `op` is not a call or its fields are missing.
    package init?(message: JSONValue) {
        guard let op = message["op"]?.stringValue.flatMap(AdapterOp.init(rawValue:)) else { return nil }
        func text(_ name: String) -> String? { message[name]?.stringValue }
        switch op {
        case .login:
            guard let grant = text("grant").flatMap(GrantType.init(rawValue:)) else { return nil }
            self = .login(grant)
        case .request:
            guard let method = text("method"), let url = text("url") else { return nil }
            self = text("mcp_method").map { .mcpCall(method: $0, url: url) } ?? .request(method: method, url: url)
        case .restart: self = .restart
        case .authorizationURL: self = .authorizationURL
        case .mcpAuthorizationURL: self = .mcpAuthorizationURL
        case .completeAuthorization:
            guard let url = text("redirect_url") else { return nil }
            self = .completeAuthorization(redirectURL: url)
        case .signInURL: self = .signInURL
        case .completeSignIn:
            guard let url = text("redirect_url") else { return nil }
            self = .completeSignIn(redirectURL: url)
        case .beginNativeSignIn: self = .beginNativeSignIn
        case .finishNativeSignIn: self = .finishNativeSignIn
        case .userinfo: self = .userinfo
        case .exchange: self = .exchangeSignIn
        case .deviceAuthorization: self = .startDeviceAuthorization
        case .devicePoll: self = .pollDeviceAuthorization
        case .identity: self = .identity
        case .tokens: self = .storedTokens
        case .restoreTokens:
            guard let accessToken = text("access_token"), let tokenType = text("token_type") else { return nil }
            let expiresAt: Date? =
                switch message["expires_at"] {
                case .integer(let seconds)?: Date(timeIntervalSince1970: Double(seconds))
                case .number(let seconds)? where seconds.isFinite: Date(timeIntervalSince1970: seconds)
                default: nil
                }
            self = .restoreSession(
                SavedSession(
                    accessToken: accessToken,
                    tokenType: tokenType,
                    refreshToken: text("refresh_token"),
                    expiresAt: expiresAt,
                    scope: text("scope")
                )
            )
        case .hello, .reset, .concurrently, .advance, .end, .shutdown: return nil
        }
    }
}
