/// Who a client holds as signed in: the issuer and subject of the ID token it accepted
/// (OIDC Core §2: together they identify the user).
public struct SignedInIdentity: Sendable, Equatable, CustomStringConvertible {
    public var issuer: String
    public var subject: String

    /// What stands for a claim the accepted ID token lacked: no provider issues it.
    public static let missingClaim = "(missing)"

    public init(issuer: String, subject: String) {
        self.issuer = issuer
        self.subject = subject
    }

    /// e.g. "sub user-1 at https://127.0.0.1:4711".
    public var description: String { "sub \(subject) at \(issuer)" }
}
