import MockProvider

/// `presents:` in a request filter: a token the provider or the app server issued
/// (`access_token#2`, `app_refresh_token#1`), or an ID token (`id_token#1`).
public enum PresentedCredential: Sendable, Equatable, CustomStringConvertible {
    case token(TokenReference)
    case idToken(ordinal: Int)

    /// `id_token#N`, or whatever `TokenReference.parse` reads.
    public static func parse(_ text: String) -> PresentedCredential? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("id_token#") {
            let digits = trimmed.dropFirst("id_token#".count)
            guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let ordinal = Int(digits), ordinal >= 1 else {
                return nil
            }
            return .idToken(ordinal: ordinal)
        }
        return TokenReference.parse(trimmed).map(PresentedCredential.token)
    }

    /// The value as issued; `nil` when no such token was issued.
    func value(issuedTokens: [IssuedToken], idTokens: [IssuedIDToken]) -> String? {
        switch self {
        case .token(let reference): reference.resolve(in: issuedTokens)?.value
        case .idToken(let ordinal): idTokens.first { $0.ordinal == ordinal }?.value
        }
    }

    public var description: String {
        switch self {
        case .token(let reference): reference.description
        case .idToken(let ordinal): "id_token#\(ordinal)"
        }
    }
}
