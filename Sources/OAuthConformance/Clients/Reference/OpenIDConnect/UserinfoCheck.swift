import Foundation
import MockProvider

/// Accepts a userinfo response (OIDC Core §5.3.2) only when its `sub` is exactly the validated ID
/// token's: a response about anyone else is discarded with an error, never merged into the
/// signed-in user's claims (token substitution).
public struct UserinfoCheck: Sendable {
    private let behaviour: OpenIDConnectBehaviour

    public init(behaviour: OpenIDConnectBehaviour = .conforming) {
        self.behaviour = behaviour
    }

    /// `body` is the JSON userinfo response; the claims come back when they are the signed-in user's.
    public func claims(
        from body: String,
        for identity: ValidatedIDToken
    ) -> Result<[String: JSONValue], OpenIDConnectRefusal> {
        guard case .object(let claims)? = JSONValue.parse(body) else {
            return .failure(.userinfoUnreadable("it is not a JSON object"))
        }
        let subject = claims["sub"]?.stringValue
        if behaviour.checksUserinfoSubject, subject != identity.subject {
            return .failure(.userinfoSubjectMismatch(found: subject, idTokenSubject: identity.subject))
        }
        return .success(claims)
    }
}
