import Foundation

/// Applies an `AuthorizationResponseAlteration` to the 302 that ends an authorization request.
struct AuthorizationResponseEditor {
    let alteration: AuthorizationResponseAlteration
    let previousState: String?

    func edit(_ response: ProviderResponse) -> ProviderResponse {
        guard response.status == 302, let location = response.header("Location"),
            var url = URLComponents(string: location)
        else {
            return response
        }
        var items = url.queryItems ?? []
        if let error = alteration.error {
            // RFC 6749 §4.1.2.1: an error redirect carries no code.
            items.removeAll { $0.name == "code" }
            items.insert(URLQueryItem(name: "error", value: error), at: 0)
        }
        apply(alteration.state, to: "state", in: &items)
        apply(alteration.issuer, to: "iss", in: &items)
        url.queryItems = items
        var edited = response
        edited.setHeader("Location", to: url.string ?? location)
        return edited
    }

    private func apply(
        _ change: AuthorizationResponseAlteration.Change?,
        to name: String,
        in items: inout [URLQueryItem]
    ) {
        guard let change else { return }
        let replacement: String? =
            switch change {
            case .omit: nil
            case .replace(let value): value
            case .previous: previousState
            }
        items.removeAll { $0.name == name }
        if let replacement { items.append(URLQueryItem(name: name, value: replacement)) }
    }
}
