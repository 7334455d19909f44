import Foundation
import MockProvider

/// What the `tokens` sign-in hands a client: a session the provider issued, as an application
/// keeps it in its own storage and gives it back to the library at launch (a `Credentials` object,
/// a deserialized token cache). The client signs nobody in; it carries on from these tokens.
public struct SavedSession: Sendable, Equatable {
    public var accessToken: String
    /// `Bearer`, as the token response said.
    public var tokenType: String
    public var refreshToken: String?
    /// When the access token expires, on the clock the client reads; `nil`: it was not said.
    public var expiresAt: Date?
    /// The scope granted, space-separated; `nil` when the provider stated none.
    public var scope: String?

    public init(accessToken: String, tokenType: String, refreshToken: String?, expiresAt: Date?, scope: String?) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scope = scope
    }
}

extension SavedSession {
    /// Why a token response makes no session an application would save as it stands.
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
    }

    /// The longest lifetime a saved session states as the provider did: a year. A longer one is an
    /// odd statement whose reading is what a scenario about it judges, not a date to hand over.
    static let longestOrdinaryLifetime = 365 * 24 * 3600

    /// The session an application saves from a token response received at `receivedAt`: its
    /// tokens and type as the provider stated them, the access token's expiry as `expires_in`
    /// after receipt, and its scope. Only an ordinary statement is saved: an odd one (a lifetime
    /// that is not a whole number of seconds from 1 s to a year, a missing access token) is the
    /// subject of the scenarios that script it, for clients that read token responses.
    public static func from(_ response: ProviderResponse, receivedAt: Date) -> Result<SavedSession, Problem> {
        guard response.status == 200, case .object(let members)? = JSONValue.parse(response.body) else {
            return .failure(Problem(message: "the provider answered \(response.status), not a token response"))
        }
        guard case .string(let accessToken)? = members["access_token"], !accessToken.isEmpty,
            case .string(let tokenType)? = members["token_type"]
        else {
            return .failure(Problem(message: "the token response has no access_token and token_type to save"))
        }
        var refreshToken: String?
        switch members["refresh_token"] {
        case nil: refreshToken = nil
        case .string(let value)? where !value.isEmpty: refreshToken = value
        case let other?: return .failure(Problem(message: "refresh_token is \(other.serialized()), not a token"))
        }
        var expiresAt: Date?
        if let stated = members["expires_in"] {
            guard let lifetime = ordinaryLifetime(stated) else {
                return .failure(Problem(message: "expires_in is \(stated.serialized()), not an ordinary lifetime"))
            }
            expiresAt = receivedAt.addingTimeInterval(TimeInterval(lifetime))
        }
        return .success(
            SavedSession(
                accessToken: accessToken,
                tokenType: tokenType,
                refreshToken: refreshToken,
                expiresAt: expiresAt,
                scope: members["scope"]?.stringValue
            )
        )
    }

    /// `expires_in` as whole seconds, when it states an ordinary lifetime (1 s to a year).
    static func ordinaryLifetime(_ stated: JSONValue) -> Int? {
        guard case .integer(let seconds) = stated, (1...longestOrdinaryLifetime).contains(seconds) else { return nil }
        return seconds
    }
}
