/// The parameters of a `Bearer` challenge in a `WWW-Authenticate` header (RFC 6750 §3, RFC 9110
/// §11.6.1): `resource_metadata` (RFC 9728 §5.1), `scope`, `error`. Values are tokens or quoted
/// strings with `\` escapes; a parameter of another scheme's challenge in the same header is not
/// the Bearer challenge's.
struct BearerChallenge: Sendable, Equatable {
    var parameters: [String: String] = [:]

    var resourceMetadata: String? { parameters["resource_metadata"] }
    var scope: String? { parameters["scope"] }
    var error: String? { parameters["error"] }

    /// The first Bearer challenge among the header's values, if any.
    static func first(in headerValues: [String]) -> BearerChallenge? {
        headerValues.lazy.compactMap(BearerChallenge.init(header:)).first
    }

    /// Reads the Bearer challenge of one header value, `nil` when it has none.
    init?(header: String) {
        var scanner = Substring(header)
        while !scanner.isEmpty {
            Self.skip(&scanner, while: { $0 == " " || $0 == "," || $0 == "\t" })
            let scheme = Self.token(&scanner)
            guard !scheme.isEmpty else { return nil }
            let parameters = Self.parameters(&scanner)
            if scheme.lowercased() == "bearer" {
                self.parameters = parameters
                return
            }
        }
        return nil
    }

    /// The `name=value` pairs after a scheme, up to the next scheme (a token not followed by `=`).
    private static func parameters(_ scanner: inout Substring) -> [String: String] {
        var found: [String: String] = [:]
        while true {
            var lookahead = scanner
            skip(&lookahead, while: { $0 == " " || $0 == "," || $0 == "\t" })
            let name = token(&lookahead)
            skip(&lookahead, while: { $0 == " " || $0 == "\t" })
            guard !name.isEmpty, lookahead.first == "=" else { return found }
            lookahead.removeFirst()
            skip(&lookahead, while: { $0 == " " || $0 == "\t" })
            let value = lookahead.first == "\"" ? quoted(&lookahead) : token(&lookahead)
            // RFC 9110 §11.2: parameter names are case-insensitive; the first occurrence counts.
            if found[name.lowercased()] == nil { found[name.lowercased()] = value }
            scanner = lookahead
        }
    }

    private static func token(_ scanner: inout Substring) -> String {
        let end =
            scanner.firstIndex { $0 == " " || $0 == "," || $0 == "=" || $0 == "\t" || $0 == "\"" } ?? scanner.endIndex
        let token = String(scanner[..<end])
        scanner = scanner[end...]
        return token
    }

    private static func quoted(_ scanner: inout Substring) -> String {
        scanner.removeFirst()
        var value = ""
        while let character = scanner.first {
            scanner.removeFirst()
            if character == "\"" { break }
            if character == "\\", let escaped = scanner.first {
                scanner.removeFirst()
                value.append(escaped)
            } else {
                value.append(character)
            }
        }
        return value
    }

    private static func skip(_ scanner: inout Substring, while predicate: (Character) -> Bool) {
        scanner = scanner.drop(while: predicate)
    }
}
