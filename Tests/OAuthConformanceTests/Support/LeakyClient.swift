import Foundation
import MockProvider

@testable import OAuthConformance

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A hand-written client with one way of leaking a token that real libraries have shipped:
/// the proof that the placement checks can fail. It logs in with the password grant and calls
/// the resource with URLSession; it never refreshes.
struct LeakyClientFactory: ClientFactory {
    enum Leak: String, CaseIterable, Sendable {
        /// RFC 6750 §2.3's URI query parameter, which RFC 9700 §4.3.2 says not to use.
        case accessTokenInQuery = "access token in the query"
        /// "Send both tokens along", as some refresh-and-replay wrappers do.
        case refreshTokenInHeader = "refresh token in a header"
        case refreshTokenInQuery = "refresh token in the query"
        case refreshTokenInBody = "refresh token in a form body"
    }

    let leak: Leak
    var profile: ClientProfile { ClientProfile(name: "leaky", version: "1", capabilities: [], refreshWindow: nil) }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        LeakyClient(leak: leak, environment: environment)
    }
}

actor LeakyClient: LoginAndRequestClient {
    let leak: LeakyClientFactory.Leak
    let environment: ClientEnvironment
    private var accessToken = ""
    private var refreshToken = ""

    init(leak: LeakyClientFactory.Leak, environment: ClientEnvironment) {
        self.leak = leak
        self.environment = environment
    }

    func login(_ grant: GrantType) async -> ClientOutcome {
        var request = URLRequest(url: URL(string: environment.endpoints.token)!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let credentials = Data("\(environment.client.id):\(environment.client.secret)".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(
            "grant_type=password&username=\(environment.user.username)&password=\(environment.user.password)".utf8
        )
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            let members = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
            accessToken = members["access_token"] as? String ?? ""
            refreshToken = members["refresh_token"] as? String ?? ""
            return .success(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: "")
        } catch {
            return .failure(ClientFailure(.transient, message: "\(error)"))
        }
    }

    func request(method: String, url: String) async -> ClientOutcome {
        var components = URLComponents(string: url)!
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        switch leak {
        case .accessTokenInQuery:
            components.queryItems = [URLQueryItem(name: "access_token", value: accessToken)]
            request.url = components.url
        case .refreshTokenInHeader:
            request.setValue(refreshToken, forHTTPHeaderField: "X-Refresh-Token")
        case .refreshTokenInQuery:
            components.queryItems = [URLQueryItem(name: "refresh_token", value: refreshToken)]
            request.url = components.url
        case .refreshTokenInBody:
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data("note=hello&refresh_token=\(refreshToken)".utf8)
        }
        return await request.clientOutcome()
    }

    func shutdown() async {}
}
