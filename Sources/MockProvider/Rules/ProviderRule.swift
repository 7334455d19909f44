import Foundation

/// One departure from correct behaviour: when a request matches, the action replaces or alters
/// what the provider would have answered, and the delivery changes how the answer travels.
public struct ProviderRule: Sendable, Equatable {
    public var match: RequestMatcher
    /// `nil`: the answer is the correct one.
    public var action: RuleAction?
    /// `nil`: the answer is sent at once, whole.
    public var delivery: Delivery?

    public init(match: RequestMatcher, action: RuleAction? = nil, delivery: Delivery? = nil) {
        self.match = match
        self.action = action
        self.delivery = delivery
    }
}

public enum RuleAction: Sendable, Equatable {
    /// Answer with this response instead of serving the request. No token is issued or checked.
    case respond(ProviderResponse)
    /// Serve the request normally (tokens are issued as usual), then alter the JSON body.
    case alterTokenResponse(TokenResponseAlteration)
    /// Answer with an RFC 6749 §5.2 error body.
    case oauthError(ScriptedOAuthError)
    /// One action per matching call, in order ("503 twice, then the correct answer"); calls
    /// past the end of the list are answered correctly.
    case sequence([RuleAction])
    /// Answer with a redirect to the same path and query elsewhere.
    case redirect(Redirect)
    /// Serve the authorization request normally, then alter the redirect back to the client.
    case alterAuthorizationResponse(AuthorizationResponseAlteration)
    /// Refuse for now with a status such as 429 or 503 and a `Retry-After` computed from virtual time.
    case retryLater(RetryLater)
    /// Serve the token request normally, issuing an ID token altered this way (when one is due:
    /// the grant began with scope `openid`).
    case alterIDToken(IDTokenAlteration)
    /// RFC 9449 §8.2, §9: the server (the token endpoint's, or the resource's) moves to a new
    /// DPoP nonce and answers `use_dpop_nonce` with it.
    case renewDPoPNonce
}

/// RFC 9110 §10.2.3: `Retry-After` as delay-seconds or as an HTTP-date.
public struct RetryLater: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable, CaseIterable {
        case seconds
        case httpDate = "http_date"
    }

    public var status: Int
    public var after: Duration
    public var format: Format
    public var body: String

    public init(status: Int = 503, after: Duration, format: Format = .seconds, body: String = "") {
        self.status = status
        self.after = after
        self.format = format
        self.body = body
    }

    func response(now: Date) -> ProviderResponse {
        let value: String =
            switch format {
            case .seconds: String(Int(after.seconds.rounded(.up)))
            case .httpDate: Self.httpDate(now.addingTimeInterval(after.seconds))
            }
        return ProviderResponse(status: status, headers: [HeaderField("Retry-After", value)], body: body)
    }

    /// IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

public struct Redirect: Sendable, Equatable {
    public enum Target: Sendable, Equatable {
        /// The provider's second origin (another port): a cross-origin redirect.
        case otherOrigin
        /// Any base URL, e.g. `http://127.0.0.1:8080`.
        case base(String)
    }

    /// 302, 303, 307 or 308.
    public var status: Int
    public var target: Target

    public init(status: Int = 307, to target: Target) {
        self.status = status
        self.target = target
    }
}

/// Changes to the redirect that ends an authorization request (RFC 6749 §4.1.2, RFC 9207).
public struct AuthorizationResponseAlteration: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        case omit
        case replace(String)
        /// The value from the previous authorization request: a replayed `state`.
        case previous
    }

    public var state: Change?
    public var issuer: Change?
    /// Answer with this error (e.g. `access_denied`) instead of a code.
    public var error: String?

    public init(state: Change? = nil, issuer: Change? = nil, error: String? = nil) {
        self.state = state
        self.issuer = issuer
        self.error = error
    }
}

/// Changes to a successful token response: its JSON members, and how the body is labelled,
/// encoded or cut short.
public struct TokenResponseAlteration: Sendable, Equatable {
    public enum ContentType: Sendable, Equatable {
        case omit
        case replace(String)
    }

    /// Members set to these values (added when absent), e.g. `"refresh_token": null`.
    public var set: [String: JSONValue]
    /// Members removed from the body.
    public var omit: Set<String>
    /// The body as `application/x-www-form-urlencoded` instead of JSON, as legacy providers send.
    public var formEncoded: Bool
    /// The `Content-Type` header omitted or replaced (applied after `formEncoded`).
    public var contentType: ContentType?
    /// The body cut to this many bytes: truncated JSON.
    public var truncatedTo: Int?

    public init(
        set: [String: JSONValue] = [:],
        omit: Set<String> = [],
        formEncoded: Bool = false,
        contentType: ContentType? = nil,
        truncatedTo: Int? = nil
    ) {
        self.set = set
        self.omit = omit
        self.formEncoded = formEncoded
        self.contentType = contentType
        self.truncatedTo = truncatedTo
    }

    func apply(to response: ProviderResponse) -> ProviderResponse {
        guard case .object(var members)? = JSONValue.parse(response.body) else { return response }
        for member in omit { members[member] = nil }
        members.merge(set) { _, scripted in scripted }
        var altered = response
        if formEncoded {
            altered.body = Self.formEncode(members)
            altered.setHeader("Content-Type", to: "application/x-www-form-urlencoded")
        } else {
            altered.body = JSONValue.object(members).serialized()
        }
        switch contentType {
        case .omit: altered.removeHeader("Content-Type")
        case .replace(let value): altered.setHeader("Content-Type", to: value)
        case nil: break
        }
        if let truncatedTo {
            altered.body = String(decoding: Array(altered.body.utf8.prefix(truncatedTo)), as: UTF8.self)
        }
        return altered
    }

    private static func formEncode(_ members: [String: JSONValue]) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return members.keys.sorted().map { name in
            let value: String =
                switch members[name]! {
                case .string(let text): text
                case .null: ""
                case let other: other.serialized()
                }
            return
                "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
    }
}

public struct ScriptedOAuthError: Sendable, Equatable {
    public var code: String
    public var description: String?
    public var uri: String?
    /// `nil`: the status RFC 6749 §5.2 gives the code.
    public var status: Int?

    public init(code: String, description: String? = nil, uri: String? = nil, status: Int? = nil) {
        self.code = code
        self.description = description
        self.uri = uri
        self.status = status
    }
}
