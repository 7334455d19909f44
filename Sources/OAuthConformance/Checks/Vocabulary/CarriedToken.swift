/// A token a request must carry: an access token as its bearer credential, a refresh token
/// in its `refresh_token` form field.
public struct CarriedToken: Sendable, Equatable {
    public var token: TokenReference
    public init(_ token: TokenReference) { self.token = token }
}
