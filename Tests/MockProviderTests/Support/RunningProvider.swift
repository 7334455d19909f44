import AsyncHTTPClient
import Foundation
import MockProvider
import NIOCore
import NIOHTTP1

/// A provider served on loopback and a real HTTP client to talk to it, for one test.
struct RunningProvider {
    struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: String
        var json: JSONValue? { JSONValue.parse(body) }
    }

    let server: ProviderServer
    let http: HTTPClient
    var provider: MockProvider { server.provider }
    var settings: ProviderSettings { server.provider.settings }

    /// Serves a provider with these settings for the duration of `body`.
    static func with<T>(
        _ settings: ProviderSettings = .init(),
        _ body: (RunningProvider) async throws -> T
    ) async throws -> T {
        try await withProvider(MockProvider(settings: settings), body)
    }

    static func withProvider<T>(
        _ mockProvider: MockProvider,
        _ body: (RunningProvider) async throws -> T
    ) async throws -> T {
        let server = try await ProviderServer.start(mockProvider)
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let running = RunningProvider(server: server, http: http)
        do {
            let result = try await body(running)
            try await http.shutdown()
            await server.shutdown()
            return result
        } catch {
            try? await http.shutdown()
            await server.shutdown()
            throw error
        }
    }

    /// POSTs a form to the token endpoint; client authentication by HTTP Basic unless `basic` is nil.
    func token(_ form: [(String, String)], basic: ClientCredentials?) async throws -> Answer {
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if let basic {
            let credentials = "\(formEncode(basic.id)):\(formEncode(basic.secret))"
            headers.append(("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
        }
        let body = form.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
        return try await send("POST", path: "/token", headers: headers, body: body)
    }

    /// POSTs a form to the app server's token endpoint, on the other origin; no client authentication.
    func appServerToken(_ form: [(String, String)]) async throws -> Answer {
        let body = form.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
        return try await send(
            "POST",
            url: server.otherOriginURL + Endpoint.appToken.path,
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: body
        )
    }

    func passwordGrant() async throws -> Answer {
        try await token(
            [("grant_type", "password"), ("username", settings.user.username), ("password", settings.user.password)],
            basic: settings.client
        )
    }

    func resource(bearer: String?) async throws -> Answer {
        try await send("GET", path: "/resource", headers: bearer.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    /// How long a request may take before the test gives up on it: a guard against a provider that
    /// hangs, long enough for a machine whose cores the parallel tests all want at once.
    static let requestTimeout: TimeAmount = .seconds(30)

    func send(
        _ method: String,
        path: String,
        headers: [(String, String)] = [],
        body: String? = nil,
        timeout: TimeAmount = RunningProvider.requestTimeout
    ) async throws -> Answer {
        try await send(method, url: server.baseURL + path, headers: headers, body: body, timeout: timeout)
    }

    func send(
        _ method: String,
        url: String,
        headers: [(String, String)] = [],
        body: String? = nil,
        timeout: TimeAmount = RunningProvider.requestTimeout
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await http.execute(request, timeout: timeout)
        let collected = try await response.body.collect(upTo: 1 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers, body: String(buffer: collected))
    }

    private func formEncode(_ text: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        )
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
