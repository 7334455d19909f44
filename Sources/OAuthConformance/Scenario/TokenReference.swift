import MockProvider

/// The n-th token of a kind the provider (or the app server) issued, as scenarios write it:
/// `refresh_token#1`, `app_access_token#2`.
public struct TokenReference: Sendable, Hashable, CustomStringConvertible {
    public var kind: IssuedToken.Kind
    public var ordinal: Int
    public var server: IssuedToken.Server

    public init(_ kind: IssuedToken.Kind, _ ordinal: Int, server: IssuedToken.Server = .provider) {
        self.kind = kind
        self.ordinal = ordinal
        self.server = server
    }

    public init(_ token: IssuedToken) {
        self.init(token.kind, token.ordinal, server: token.server)
    }

    public var description: String { IssuedToken.labelPrefix(kind, server) + String(ordinal) }

    public func resolve(in issued: [IssuedToken]) -> IssuedToken? {
        issued.first { $0.kind == kind && $0.ordinal == ordinal && $0.server == server }
    }
}
