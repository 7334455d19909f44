import Foundation
import MockProvider

/// Turns a token endpoint answer into tokens or a typed error, as RFC 6749 §5.1 and §5.2 say.
struct TokenResponseInterpreter: Sendable {
    /// Lifetimes beyond this are clamped, so a huge `expires_in` cannot overflow a date.
    static let longestLifetime: TimeInterval = 10 * 365 * 86_400
    /// The members RFC 6749 §5.1 and §5.2 define; a strict decoder knows only these.
    static let definedMembers: Set<String> = [
        "access_token", "token_type", "expires_in", "refresh_token", "scope", "error", "error_description", "error_uri",
    ]

    let behaviour: ClientBehaviour

    /// `serverDate` is the answer's `Date` header, which a conforming client does not measure expiry
    /// from; `askedForDPoP`: the request carried a DPoP proof, so `token_type` DPoP is expected.
    func interpret(
        status: Int,
        body: String,
        receivedAt: Date,
        previous: TokenSet?,
        serverDate: Date? = nil,
        askedForDPoP: Bool = false
    ) -> Result<TokenSet, ClientFailure> {
        guard case .object(let members)? = JSONValue.parse(body) else {
            guard behaviour.classifiesBodilessErrorsByStatus else {
                return .failure(ClientFailure(.protocolViolation, message: "server response missing access_token"))
            }
            return .failure(Self.failureWithoutErrorCode(status: status, detail: "a body that is not a JSON object"))
        }
        // A §5.2 error body is an error whatever the status, even a 200.
        if let code = members["error"]?.stringValue, status != 200 || behaviour.errorMemberOverridesStatus {
            guard behaviour.reportsErrorCodes else {
                return .failure(ClientFailure(.transient, message: "the token request failed (HTTP \(status))"))
            }
            guard behaviour.surfacesErrorCodeAsField else {
                let detail = members["error_description"]?.stringValue.map { ": \($0)" } ?? ""
                return .failure(ClientFailure(.oauthError, message: "\(code)\(detail)"))
            }
            return .failure(
                Self.oauthFailure(code: code, description: members["error_description"]?.stringValue, status: status)
            )
        }
        guard status == 200 else {
            return .failure(Self.failureWithoutErrorCode(status: status, detail: "no RFC 6749 §5.2 error code"))
        }
        if !behaviour.ignoresUnknownMembers,
            let unknown = members.keys.sorted().first(where: { !Self.definedMembers.contains($0) })
        {
            return .failure(
                ClientFailure(.protocolViolation, message: "the token response has an unexpected member '\(unknown)'")
            )
        }
        let accessToken = members["access_token"]?.stringValue ?? ""
        guard !accessToken.isEmpty || !behaviour.requiresAccessToken else {
            return .failure(
                ClientFailure(.protocolViolation, message: "the token response has no access_token (RFC 6749 §5.1)")
            )
        }
        guard let tokenType = members["token_type"]?.stringValue else {
            return .failure(
                ClientFailure(.protocolViolation, message: "the token response has no token_type (RFC 6749 §5.1)")
            )
        }
        let isBearer = behaviour.tokenTypeCaseInsensitive ? tokenType.lowercased() == "bearer" : tokenType == "Bearer"
        // RFC 9449 §5: a bound token is of type DPoP, which only a client that sent a proof can use.
        let downgraded = askedForDPoP && isBearer
        let isDPoP =
            askedForDPoP
            && (tokenType.lowercased() == "dpop" || (downgraded && behaviour.dpop.bearerAnswer == .useAsDPoP))
        if downgraded, behaviour.dpop.bearerAnswer == .refuse {
            // §7.1 leaves a downgrade to the client; this one declares `dpop_downgrade: refuse`.
            return .failure(
                ClientFailure(
                    .protocolViolation,
                    message: "asked for a DPoP-bound token, the token endpoint answered token_type Bearer (RFC 9449 §5)"
                )
            )
        }
        guard isBearer || isDPoP || !behaviour.refusesOtherTokenTypes else {
            return .failure(
                ClientFailure(.protocolViolation, message: "token_type '\(tokenType)' is not supported; only Bearer is")
            )
        }
        let lifetime = behaviour.readsExpiresIn ? lifetime(members["expires_in"]) : nil
        let start = behaviour.measuresExpiryFromReceipt ? receivedAt : serverDate ?? receivedAt
        let unstated =
            behaviour.missingLifetimeMeansExpired
            ? receivedAt : behaviour.replacesExpiryWithEachResponse ? nil : previous?.expiresAt
        let expiresAt = lifetime.map { start.addingTimeInterval($0) } ?? unstated
        return .success(
            TokenSet(
                accessToken: accessToken,
                expiresAt: expiresAt,
                refreshToken: refreshToken(members["refresh_token"], previous: previous),
                receivedAt: receivedAt,
                idToken: members["id_token"]?.stringValue,
                dpopBound: isDPoP
            )
        )
    }

    /// RFC 6749 §6: a refresh response may leave the refresh token out; the one sent stays in force.
    private func refreshToken(_ member: JSONValue?, previous: TokenSet?) -> String? {
        let kept = behaviour.keepsRefreshTokenWhenAbsent ? previous?.refreshToken : nil
        let presented: String? =
            switch member {
            case .string(let value)? where !value.isEmpty: value
            case .string?, .null?: behaviour.treatsEmptyRefreshTokenAsAbsent ? nil : ""
            default: nil
            }
        return behaviour.storesRotatedRefreshToken ? presented ?? kept : kept ?? presented
    }

    /// Seconds from `expires_in`: a positive number, or a numeric string as lenient libraries accept.
    /// Anything else (absent, null, zero, negative, garbage) means no stated lifetime: the token is
    /// used until a 401 says otherwise, rather than refreshed on every request.
    func lifetime(_ value: JSONValue?) -> TimeInterval? {
        let seconds: Double? =
            switch value {
            case .integer(let number)?: Double(number)
            case .number(let number)?: number
            case .string(let text)? where behaviour.readsStringExpiresIn:
                Double(text.trimmingCharacters(in: .whitespaces))
            default: nil
            }
        guard let seconds, seconds.isFinite, seconds > 0 else { return nil }
        return min(seconds, Self.longestLifetime)
    }

    /// A §5.2 error response: its category is the status's and the code's (`SurfacedError`).
    static func oauthFailure(code: String, description: String?, status: Int) -> ClientFailure {
        let category = SurfacedError(status: status, oauthError: code).category ?? .oauthError
        let detail = description.map { ": \($0)" } ?? ""
        return ClientFailure(
            category,
            oauthError: code,
            status: status,
            message: "token endpoint answered \(status) \(code)\(detail)"
        )
    }

    /// An error without a code: transient for a server error or throttling, else an answer the
    /// protocol does not allow.
    static func failureWithoutErrorCode(status: Int, detail: String) -> ClientFailure {
        ClientFailure(
            SurfacedError(status: status).category ?? .protocolViolation,
            status: status,
            message: "token endpoint answered \(status) with \(detail)"
        )
    }
}
