import Foundation

/// A complete HTTP request as the provider received it: what endpoint logic reads and what
/// the journal keeps.
public struct ProviderRequest: Sendable, Equatable {
    public var method: String
    /// The request target as sent: path plus query.
    public var target: String
    public var headers: [HeaderField] { didSet { formFields = Self.formFields(headers: headers, body: body) } }
    public var body: String { didSet { formFields = Self.formFields(headers: headers, body: body) } }
    public var listener: Listener
    /// Sent by the harness in process, not by the client: the sign-in whose tokens an application
    /// saved (`MockProvider.signInForASavedSession`). Journaled, answered and counted like any
    /// request; never held against the client.
    public var madeByTheHarness = false
    /// The body's fields when it is `application/x-www-form-urlencoded`, otherwise none. Parsed
    /// once: every endpoint reads several fields of every request.
    public private(set) var formFields: [FormField]

    public init(
        method: String,
        target: String,
        headers: [HeaderField] = [],
        body: String = "",
        listener: Listener = .primary
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.listener = listener
        self.formFields = Self.formFields(headers: headers, body: body)
    }

    private static func formFields(headers: [HeaderField], body: String) -> [FormField] {
        guard let contentType = headers.value(named: "Content-Type"),
            ASCII.hasCaseInsensitivePrefix(contentType.utf8, "application/x-www-form-urlencoded")
        else { return [] }
        return FormField.decode(body)
    }

    public var path: String {
        // Most targets have no query; then the path is the target, and no Characters need walking.
        guard target.utf8.contains(UInt8(ascii: "?")) else { return target }
        return String(target.prefix { $0 != "?" })
    }

    public var queryItems: [FormField] {
        guard let mark = target.firstIndex(of: "?") else { return [] }
        return FormField.decode(String(target[target.index(after: mark)...]))
    }

    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }

    public func formField(_ name: String) -> String? {
        formFields.first { $0.name == name }?.value
    }

    /// A member of a JSON object body (an RFC 7591 registration request's client metadata) as a
    /// check reads a parameter: a string as it is, a list of strings space-separated (so that
    /// `includes` finds one of `redirect_uris` or `grant_types`), any other value as JSON text;
    /// `nil` when the body is no JSON object or lacks the member.
    public func jsonMember(_ name: String) -> String? {
        guard
            headers.value(named: "Content-Type").map({ ASCII.hasCaseInsensitivePrefix($0.utf8, "application/json") })
                == true,
            let value = JSONValue.parse(body)?[name]
        else { return nil }
        switch value {
        case .string(let text): return text
        case .array(let items) where items.allSatisfy({ $0.stringValue != nil }):
            return items.compactMap(\.stringValue).joined(separator: " ")
        default: return value.serialized()
        }
    }

    /// The token of an `Authorization: Bearer …` header (the scheme is case-insensitive, RFC 6750 §2.1).
    public var bearerToken: String? {
        header("Authorization").flatMap { Self.credentials(ofScheme: "bearer", in: $0) }
    }

    /// The client id and secret of `Authorization: Basic …` credentials (RFC 6749 §2.3.1: each
    /// part form-encoded, then base64); `nil` when the request has none, or they do not decode.
    public var basicCredentials: ClientCredentials? {
        header("Authorization").flatMap { Self.credentials(ofScheme: "basic", in: $0) }.flatMap(
            ClientCredentials.init(basic:)
        )
    }

    /// What follows the scheme in an `Authorization` value such as `Basic dXNlcjpwdw==`, trimmed;
    /// `nil` when the value uses another scheme. `scheme` is lowercase ASCII: schemes compare
    /// case-insensitively (RFC 9110 §11.1), and folding ASCII alone spares a Unicode lowercasing.
    static func credentials(ofScheme scheme: String, in authorization: String) -> String? {
        credentialBytes(ofScheme: scheme, in: authorization).map(trimmingWhitespace)
    }

    /// `credentials(ofScheme:in:)` untrimmed and uncopied: a slice of `authorization`.
    static func credentialBytes(ofScheme scheme: String, in authorization: String) -> Substring? {
        let bytes = authorization.utf8
        func firstNonSpace(from index: String.Index) -> String.Index? {
            bytes[index...].firstIndex { $0 != UInt8(ascii: " ") }
        }
        // Spaces may stand before the scheme, and one or more after it (RFC 9110 §11.4).
        guard let schemeStart = firstNonSpace(from: bytes.startIndex),
            let space = bytes[schemeStart...].firstIndex(of: UInt8(ascii: " ")),
            ASCII.equalIgnoringCase(bytes[schemeStart..<space], scheme.utf8),
            let start = firstNonSpace(from: space)
        else { return nil }
        return authorization[start...]
    }

    /// `trimmingCharacters(in: .whitespaces)`, which costs a Foundation string bridge, done only
    /// when an end holds something it might trim: tokens and credentials seldom have spaces around them.
    static func trimmingWhitespace(_ text: Substring) -> String {
        func plainASCII(_ byte: UInt8?) -> Bool {
            byte.map { $0 < 0x80 && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? true
        }
        guard plainASCII(text.utf8.first), plainASCII(text.utf8.last) else {
            return String(text).trimmingCharacters(in: .whitespaces)
        }
        return String(text)
    }
}

public struct ProviderResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [HeaderField]
    public var body: String

    public init(status: Int, headers: [HeaderField] = [], body: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.value(named: name)
    }

    /// Leaves exactly one such header, with this value: where the first one stood, or added.
    mutating func setHeader(_ name: String, to value: String) {
        var replaced = false
        headers = headers.compactMap { header in
            guard header.isNamed(name) else { return header }
            defer { replaced = true }
            return replaced ? nil : HeaderField(header.name, value)
        }
        if !replaced { headers.append(HeaderField(name, value)) }
    }

    mutating func removeHeader(_ name: String) {
        headers.removeAll { $0.isNamed(name) }
    }

    /// RFC 6749 §5.1: token responses carry JSON and must not be cached.
    private static let jsonHeaders = [
        HeaderField("Content-Type", "application/json"),
        HeaderField("Cache-Control", "no-store"),
        HeaderField("Pragma", "no-cache"),
    ]

    /// What the provider answers at a path it serves nothing at.
    static let notFound = ProviderResponse(
        status: 404,
        headers: [HeaderField("Content-Type", "text/plain")],
        body: "not found\n"
    )

    static func json(_ status: Int, _ body: JSONValue, extraHeaders: [HeaderField] = []) -> ProviderResponse {
        ProviderResponse(
            status: status,
            headers: extraHeaders.isEmpty ? jsonHeaders : jsonHeaders + extraHeaders,
            body: body.serialized()
        )
    }

    /// `json(status, .object(members))` for members listed in sorted key order.
    static func json(_ status: Int, sortedMembers members: [(key: String, value: JSONValue)]) -> ProviderResponse {
        ProviderResponse(status: status, headers: jsonHeaders, body: JSONValue.serializedObject(sortedMembers: members))
    }

    static func oauthError(_ error: ScriptedOAuthError, extraHeaders: [HeaderField] = []) -> ProviderResponse {
        var members: [String: JSONValue] = ["error": .string(error.code)]
        if let description = error.description { members["error_description"] = .string(description) }
        if let uri = error.uri { members["error_uri"] = .string(uri) }
        let status = error.status ?? OAuthErrorCode(rawValue: error.code)?.defaultStatus ?? 400
        return .json(status, .object(members), extraHeaders: extraHeaders)
    }
}

public struct HeaderField: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Header names compare case-insensitively (RFC 9110 §5.1). They are ASCII tokens, so an
    /// ASCII fold does it, without Foundation's locale-aware comparison on every request.
    func isNamed(_ other: String) -> Bool {
        ASCII.equalIgnoringCase(name.utf8, other.utf8)
    }

    /// The provider writes scripted headers as they are, so a field must be one HTTP/1.1 can carry
    /// at all: a token for a name (RFC 9110 §5.1) and no CR, LF or NUL in the value (§5.5).
    public var hasTokenName: Bool {
        !name.isEmpty && name.utf8.allSatisfy(ASCII.isTokenCharacter)
    }

    public var hasSendableValue: Bool {
        !value.utf8.contains { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
    }
}

enum ASCII {
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Equal but for the case of ASCII letters. Lengths are compared first: most names a
    /// header lookup meets differ in length, and a String's UTF-8 count costs nothing.
    static func equalIgnoringCase<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        // Native strings lend their bytes; walking them through String indices costs several times more.
        let compared = a.withContiguousStorageIfAvailable { a in
            b.withContiguousStorageIfAvailable { b in
                zip(a, b).allSatisfy { lowercased($0) == lowercased($1) }
            }
        }
        return (compared ?? nil) ?? a.elementsEqual(b) { lowercased($0) == lowercased($1) }
    }

    static func hasCaseInsensitivePrefix(_ text: String.UTF8View, _ prefix: String) -> Bool {
        text.count >= prefix.utf8.count && equalIgnoringCase(text.prefix(prefix.utf8.count), prefix.utf8)
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// RFC 3986 §2.3: what form- and percent-encoding leave alone, and what PKCE verifiers are made of.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "-._~".utf8.contains(byte)
    }

    /// RFC 9110 §5.6.2: a character of a token, such as a header name.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

extension StringProtocol where SubSequence == Substring {
    /// `split(separator:maxSplits:omittingEmptySubsequences:)` at an ASCII separator. In ASCII
    /// text every Character is one byte or a CR LF pair, neither of which can hide the separator,
    /// so the split runs on the bytes, without the grapheme breaking a split by Characters costs
    /// on every request. Other text is split by Characters.
    func splitASCII(
        _ separator: Unicode.Scalar,
        maxSplits: Int = .max,
        omittingEmptySubsequences: Bool = true
    ) -> [Substring] {
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            return split(
                separator: Character(separator),
                maxSplits: maxSplits,
                omittingEmptySubsequences: omittingEmptySubsequences
            )
        }
        return utf8.split(
            separator: UInt8(ascii: separator),
            maxSplits: maxSplits,
            omittingEmptySubsequences: omittingEmptySubsequences
        )
        .map { self[$0.startIndex..<$0.endIndex] }
    }
}

extension [HeaderField] {
    /// The value of the first header with this name.
    func value(named name: String) -> String? {
        first { $0.isNamed(name) }?.value
    }
}

public struct FormField: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Decodes `application/x-www-form-urlencoded` text (also used for query strings).
    /// Empty pairs are skipped; only the first `=` of a pair separates. `&` and `=` are ASCII,
    /// and no byte of a multi-byte UTF-8 sequence is, so the bytes are searched directly.
    public static func decode(_ text: String) -> [FormField] {
        var fields: [FormField] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let pairEnd = rest.utf8.firstIndex(of: UInt8(ascii: "&")) ?? rest.endIndex
            let pair = rest[..<pairEnd]
            rest = pairEnd == rest.endIndex ? "" : rest[rest.utf8.index(after: pairEnd)...]
            guard !pair.isEmpty else { continue }
            guard let equals = pair.utf8.firstIndex(of: UInt8(ascii: "=")) else {
                fields.append(FormField(formDecode(String(pair)), ""))
                continue
            }
            fields.append(
                FormField(
                    formDecode(String(pair[..<equals])),
                    formDecode(String(pair[pair.utf8.index(after: equals)...]))
                )
            )
        }
        return fields
    }

    /// Form encoding writes a space as `+`; everything else is percent-encoding.
    static func formDecode(_ text: String) -> String {
        // Most names and values (grant_type=client_credentials) hold neither, and Foundation's
        // replacing and percent-decoding cost more than the rest of a token request.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return text }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
