import Foundation
import MockProvider

/// Finds a credential wherever a request carries it: a header, the query string, the body.
/// A request is cut into words of the characters a token may hold (RFC 6750 §2.1 b64token,
/// without the trailing `=`), so `rt-1` is found in `?refresh_token=rt-1` or a JSON body but
/// not inside `rt-10`.
enum CredentialSearch {
    enum Place: Equatable, CustomStringConvertible {
        case header(String)
        case queryParameter(String)
        case formField(String)
        case body
        /// Inside HTTP Basic credentials (`Authorization: Basic …`, decoded).
        case basicCredentials

        var description: String {
            switch self {
            case .header(let name): "header \(name)"
            case .queryParameter(let name): "query parameter \(name)"
            case .formField(let name): "form field \(name)"
            case .body: "body"
            case .basicCredentials: "HTTP Basic credentials"
            }
        }
    }

    /// Every place in the request that holds `value`.
    static func places(of value: String, in request: ProviderRequest) -> [Place] {
        let word = searchWord(value)
        guard !word.isEmpty else { return [] }
        var places: [Place] = []
        for header in request.headers where words(header.value).contains(word) {
            places.append(.header(header.name))
        }
        for item in request.queryItems where words(item.value).contains(word) {
            places.append(.queryParameter(item.name))
        }
        let fields = request.formFields
        if fields.isEmpty {
            if words(request.body).contains(word) { places.append(.body) }
        } else {
            for field in fields where words(field.value).contains(word) {
                places.append(.formField(field.name))
            }
        }
        return places
    }

    /// Every place that holds `value`, HTTP Basic credentials decoded included: where a client
    /// secret travels.
    static func placesDecodingBasic(of value: String, in request: ProviderRequest) -> [Place] {
        var found = places(of: value, in: request)
        let basic = request.headers.compactMap { header -> String? in
            let parts = header.value.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "basic",
                let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces))
            else { return nil }
            return String(data: data, encoding: .utf8)
        }
        if basic.contains(where: { decoded in
            decoded.split(separator: ":", omittingEmptySubsequences: false).contains {
                FormField.decode("v=\($0)").first?.value == value
            }
        }) {
            found.append(.basicCredentials)
        }
        return found
    }

    /// Whether `value` stands in `text` as a whole word of token characters.
    static func isWord(_ value: String, in text: String) -> Bool {
        let word = searchWord(value)
        return !word.isEmpty && words(text).contains(word)
    }

    /// The value as the word it is found as: without the trailing `=` of base64 padding, which
    /// the word characters leave out.
    private static func searchWord(_ value: String) -> String {
        String(value.reversed().drop { $0 == "=" }.reversed())
    }

    private static let tokenCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/")

    private static func words(_ text: String) -> Set<String> {
        Set(text.split { !tokenCharacters.contains($0) }.map(String.init))
    }
}

/// How a client surfaced an RFC 6749 §5.2 error code the provider sent: as the failure's code
/// field, or only as a word of its message or error type (`"invalid_grant: the grant was revoked"`).
enum CodeSurfacing: Equatable {
    case field
    case inMessageOnly

    /// `nil` when the client surfaced the code nowhere, or surfaced another code in the field.
    init?(of code: String, in failure: ClientFailure) {
        if let field = failure.oauthError {
            guard field == code else { return nil }
            self = .field
        } else if CredentialSearch.isWord(code, in: failure.message + " " + (failure.errorType ?? "")) {
            self = .inMessageOnly
        } else {
            return nil
        }
    }
}
