import MockProvider

/// `bearer:` in a request filter: which access token a request presented as its bearer credential.
public enum BearerFilter: Sendable, Equatable, CustomStringConvertible {
    /// `Authorization: Bearer` with this issued access token.
    case token(TokenReference)
    /// No bearer token at all (or an empty one): the request went out unauthenticated.
    case none

    func matches(_ presented: String?, issuedTokens: [IssuedToken]) -> Bool {
        switch self {
        case .none: presented?.isEmpty ?? true
        case .token(let reference): presented != nil && presented == reference.resolve(in: issuedTokens)?.value
        }
    }

    /// e.g. "with bearer access_token#1", "without a bearer token".
    public var description: String {
        switch self {
        case .none: "without a bearer token"
        case .token(let reference): "with bearer \(reference)"
        }
    }
}
