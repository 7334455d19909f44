import Foundation

/// Changes to a successful token response: its JSON members, and how the body is labelled,
/// encoded or cut short.
public struct TokenResponseAlteration: ProviderMisbehaviour {
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

    /// Serves the request normally (tokens are issued as usual), then alters the answer if it is a
    /// success; an error stays the error it was.
    public func answer(_ context: MisbehaviourContext) -> ProviderResponse {
        let served = context.correctAnswer()
        return served.status == 200 ? apply(to: served) : served
    }

    private func apply(to response: ProviderResponse) -> ProviderResponse {
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

extension RuleAction {
    public static func alterTokenResponse(_ alteration: TokenResponseAlteration) -> RuleAction {
        RuleAction(alteration)
    }
}
