import Foundation
import MockProvider
import Testing

/// What the provider keeps of what clients send stays bounded however much they send: the journal
/// in bytes, the seen client-assertion `jti`s by their length, pushed authorization requests and
/// device codes in number and bytes. Requests go to `MockProvider.handle`, as the server hands them.
@Suite("The provider's stores stay within their bounds whatever clients send")
struct StoreBoundTests {
    static let basic = "Basic " + Data("conformance-client:conformance-secret".utf8).base64EncodedString()

    static func form(_ path: String, _ body: String, authenticated: Bool = true) -> ProviderRequest {
        var headers = [HeaderField("Content-Type", "application/x-www-form-urlencoded")]
        if authenticated { headers.append(HeaderField("Authorization", basic)) }
        return ProviderRequest(method: "POST", target: path, headers: headers, body: body)
    }

    @Test("a hundred unauthenticated 1 MiB POSTs: the journal keeps what fits its byte budget and counts the rest")
    func journalBytes() {
        let provider = MockProvider(journal: Journal(capacity: 10_000))
        let megabyte = "grant_type=password&padding=" + String(repeating: "x", count: 1 << 20)
        for _ in 0..<100 { _ = provider.handle(Self.form("/token", megabyte, authenticated: false)) }
        let kept = provider.journal.entries.reduce(0) { $0 + $1.request.body.utf8.count }
        #expect(kept <= 64 << 20, "the journal kept \(kept) bytes of bodies")
        #expect(provider.journal.droppedCount > 0)
        #expect(provider.journal.lastSequence == 100)
    }

    @Test("pushed requests beyond the budget forget the oldest: 40 pushes of 900 KB keep the latest, not the first")
    func pushedRequestBytes() {
        var settings = ProviderSettings()
        settings.pushedAuthorization = PushedAuthorizationPolicy(required: false)
        let provider = MockProvider(settings: settings)
        let padding = String(repeating: "y", count: 900_000)
        var uris: [String] = []
        for _ in 0..<40 {
            let answer = provider.handle(
                Self.form(
                    "/par",
                    "response_type=code&client_id=conformance-client&redirect_uri=http://127.0.0.1/callback&padding=\(padding)"
                )
            )
            uris.append(JSONValue.parse(answer.response.body)?["request_uri"]?.stringValue ?? "")
        }
        func authorize(_ uri: String) -> ProviderResponse {
            provider.handle(
                ProviderRequest(method: "GET", target: "/authorize?client_id=conformance-client&request_uri=\(uri)")
            ).response
        }
        #expect(authorize(uris[0]).status == 400, "the first push must be forgotten")
        #expect(authorize(uris[39]).status == 302, "the latest push must still be served")
    }

    @Test("device codes beyond the provider's count are forgotten, oldest first")
    func deviceCodeCount() {
        let provider = MockProvider()
        var codes: [String] = []
        for _ in 0..<10_001 {
            let answer = provider.handle(Self.form("/device_authorization", ""))
            codes.append(JSONValue.parse(answer.response.body)?["device_code"]?.stringValue ?? "")
        }
        func poll(_ code: String) -> String? {
            let body = "grant_type=urn:ietf:params:oauth:grant-type:device_code&device_code=\(code)"
            return JSONValue.parse(provider.handle(Self.form("/token", body)).response.body)?["error"]?.stringValue
        }
        #expect(poll(codes[0]) == "invalid_grant", "the first code must be forgotten")
        #expect(poll(codes[10_000]) == "authorization_pending")
    }
}
