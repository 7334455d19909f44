import Foundation
import MockProvider

/// Pushed authorization requests (RFC 9126) for the reference client: the authorization request's
/// parameters go to the provider's PAR endpoint over the back channel, authenticated like a token
/// request, and the browser gets only `client_id` and the one-time `request_uri` that comes back.
/// A push that fails ends the authorization there: the request never goes to the front channel
/// instead (RFC 9126 §5, when the provider requires pushes). HTTP is a closure, as for
/// `OpenIDRelyingParty`.
struct AuthorizationPusher: Sendable {
    /// POSTs the form, authenticated as the client; the status and body of the answer.
    typealias Post = @Sendable (_ url: String, _ form: [(String, String)]) async -> Result<(Int, String), ClientFailure>

    let endpointURL: String
    let post: Post

    /// The URL the browser opens: the authorization endpoint with `client_id` and `request_uri`.
    func push(
        _ parameters: [URLQueryItem],
        clientID: String,
        authorizationEndpoint: String
    ) async -> Result<String, ClientFailure> {
        let form = parameters.compactMap { item in item.value.map { (item.name, $0) } }
        let (status, body): (Int, String)
        switch await post(endpointURL, form) {
        case .success(let answer): (status, body) = answer
        case .failure(let failure): return .failure(failure)
        }
        let members = JSONValue.parse(body)
        guard status == 201 || status == 200, let uri = members?["request_uri"]?.stringValue, !uri.isEmpty else {
            return .failure(
                EndpointRefusal.failure(
                    status: status,
                    error: members?["error"]?.stringValue,
                    endpoint: "pushed authorization request"
                )
            )
        }
        return .success(
            AuthorizationRequest.url(
                endpoint: authorizationEndpoint,
                [URLQueryItem(name: "client_id", value: clientID), URLQueryItem(name: "request_uri", value: uri)]
            )
        )
    }
}
