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

        var description: String {
            switch self {
            case .header(let name): "header \(name)"
            case .queryParameter(let name): "query parameter \(name)"
            case .formField(let name): "form field \(name)"
            case .body: "body"
            }
        }
    }

    /// Every place in the request that holds `value`.
    static func places(of value: String, in request: ProviderRequest) -> [Place] {
        let word = String(value.reversed().drop { $0 == "=" }.reversed())
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

    private static let tokenCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/")

    private static func words(_ text: String) -> Set<String> {
        Set(text.split { !tokenCharacters.contains($0) }.map(String.init))
    }
}
