import Foundation
import MockProvider

/// Turns a token endpoint answer into tokens or a typed error, as RFC 6749 §5.1 and §5.2 say.
struct TokenResponseInterpreter: Sendable {
    /// Lifetimes beyond this are clamped, so a huge `expires_in` cannot overflow a date.
    static let longestLifetime: TimeInterval = 10 * 365 * 86_400

    let behaviour: ClientBehaviour

    func interpret(status: Int, body: String, receivedAt: Date, previous: TokenSet?) -> Result<TokenSet, ClientFailure> {
        guard case .object(let members)? = JSONValue.parse(body) else {
            return .failure(Self.failureWithoutErrorCode(status: status, detail: "a body that is not a JSON object"))
        }
        // A §5.2 error body is an error whatever the status, even a 200.
        if let code = members["error"]?.stringValue {
            guard behaviour.reportsErrorCodes else {
                return .failure(ClientFailure(.transient, message: "the token request failed (HTTP \(status))"))
            }
            return .failure(Self.oauthFailure(code: code, description: members["error_description"]?.stringValue, status: status))
        }
        guard status == 200 else {
            return .failure(Self.failureWithoutErrorCode(status: status, detail: "no RFC 6749 §5.2 error code"))
        }
        guard let accessToken = members["access_token"]?.stringValue, !accessToken.isEmpty else {
            return .failure(ClientFailure(.protocolViolation, message: "the token response has no access_token (RFC 6749 §5.1)"))
        }
        guard let tokenType = members["token_type"]?.stringValue else {
            return .failure(ClientFailure(.protocolViolation, message: "the token response has no token_type (RFC 6749 §5.1)"))
        }
        guard tokenType.lowercased() == "bearer" else {
            return .failure(ClientFailure(.protocolViolation, message: "token_type '\(tokenType)' is not supported; only Bearer is"))
        }
        let lifetime = behaviour.readsExpiresIn ? Self.lifetime(members["expires_in"]) : nil
        let presentedRefreshToken = members["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let keptRefreshToken = behaviour.keepsRefreshTokenWhenAbsent ? previous?.refreshToken : nil
        return .success(TokenSet(
            accessToken: accessToken,
            expiresAt: lifetime.map { receivedAt.addingTimeInterval($0) },
            refreshToken: presentedRefreshToken ?? keptRefreshToken
        ))
    }

    /// Seconds from `expires_in`: a number, or a numeric string as lenient libraries accept; anything
    /// else (absent, null, garbage) means no stated lifetime.
    static func lifetime(_ value: JSONValue?) -> TimeInterval? {
        let seconds: Double? = switch value {
        case .integer(let number)?: Double(number)
        case .number(let number)?: number
        case .string(let text)?: Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
        return seconds.map { min(max($0, 0), longestLifetime) }
    }

    static func oauthFailure(code: String, description: String?, status: Int) -> ClientFailure {
        let category: ErrorCategory = switch code {
        case "invalid_grant": .authorizationRequired
        case "invalid_client": .invalidClient
        default: .oauthError
        }
        let detail = description.map { ": \($0)" } ?? ""
        return ClientFailure(category, oauthError: code, message: "token endpoint answered \(status) \(code)\(detail)")
    }

    static func failureWithoutErrorCode(status: Int, detail: String) -> ClientFailure {
        let category: ErrorCategory = status >= 500 || status == 429 ? .transient : .protocolViolation
        return ClientFailure(category, message: "token endpoint answered \(status) with \(detail)")
    }
}
