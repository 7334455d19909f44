import Foundation
import MockProvider
import Testing

/// What the provider reads from a request: form fields, bearer tokens and paths. ASCII text is
/// parsed on its bytes and other text by Characters; both must read the same.
struct RequestParsingTests {
    @Test("form fields: empty pairs skipped, a missing value is empty, only the first = separates")
    func formFieldShapes() {
        let fields = FormField.decode("a=1&&b=&c&=d&e=x=y")
        #expect(
            fields == [
                FormField("a", "1"), FormField("b", ""), FormField("c", ""), FormField("", "d"), FormField("e", "x=y"),
            ]
        )
    }

    @Test("form fields: + is a space and percent-escapes are decoded, in ASCII and other text alike")
    func formFieldDecoding() {
        #expect(
            FormField.decode("name=J%C3%BCrgen+M&caf%C3%A9=%E2%98%95") == [
                FormField("name", "Jürgen M"), FormField("café", "☕"),
            ]
        )
        #expect(FormField.decode("prénom=Zoë+A&x=1") == [FormField("prénom", "Zoë A"), FormField("x", "1")])
        #expect(FormField.decode("bad=%zz") == [FormField("bad", "%zz")])
    }

    @Test("bearer tokens: scheme in any case, surrounding whitespace trimmed, other schemes ignored")
    func bearerTokens() {
        func token(_ authorization: String) -> String? {
            ProviderRequest(method: "GET", target: "/resource", headers: [HeaderField("Authorization", authorization)])
                .bearerToken
        }
        #expect(token("Bearer at-1") == "at-1")
        #expect(token("bEaReR   at-1 \t") == "at-1")
        #expect(token(" Bearer at-1") == "at-1")
        #expect(token("Bearer at-1\u{00A0}") == "at-1")
        #expect(token("Bearer jeton-é") == "jeton-é")
        #expect(token("Basic at-1") == nil)
        #expect(token("Bearer") == nil)
        #expect(token("Bearer ") == nil)
        #expect(token("Bearer\tat-1") == nil)
    }

    @Test("Basic client credentials: scheme in any case, spaces around them, the exact value only")
    func basicCredentials() {
        let provider = MockProvider()
        let client = provider.settings.client
        let encoded = Data("\(client.id):\(client.secret)".utf8).base64EncodedString()
        func status(_ authorization: String) -> Int {
            let request = ProviderRequest(
                method: "POST",
                target: "/token",
                headers: [
                    HeaderField("Authorization", authorization),
                    HeaderField("Content-Type", "application/x-www-form-urlencoded"),
                ],
                body: "grant_type=client_credentials"
            )
            return provider.handle(request).response.status
        }
        #expect(status("Basic \(encoded)") == 200)
        #expect(status("bASIC   \(encoded) ") == 200)
        #expect(status(" Basic \(encoded)") == 200)
        #expect(status("Basic \(encoded.dropLast(4))") == 401)
        #expect(status("Basic \(encoded)AAAA") == 401)
        #expect(status("Bearer \(encoded)") == 401)
        #expect(status("Basic") == 401)
    }

    @Test("header names and the form media type compare without regard to case")
    func caseInsensitiveNames() {
        func request(contentType: String) -> ProviderRequest {
            ProviderRequest(
                method: "POST",
                target: "/token",
                headers: [HeaderField("content-TYPE", contentType)],
                body: "a=1"
            )
        }
        let form = request(contentType: "Application/X-WWW-Form-Urlencoded; charset=UTF-8")
        #expect(form.header("Content-Type") != nil)
        #expect(form.header("Content-Typ") == nil)
        #expect(form.header("Content-Types") == nil)
        #expect(form.formField("a") == "1")
        #expect(request(contentType: "text/plain").formField("a") == nil)
        #expect(request(contentType: "application/x-www-form").formField("a") == nil)
    }

    @Test("the path is the target up to its query")
    func paths() {
        #expect(ProviderRequest(method: "GET", target: "/resource/a?x=1&y=?").path == "/resource/a")
        #expect(ProviderRequest(method: "GET", target: "/token").path == "/token")
        #expect(ProviderRequest(method: "GET", target: "/é?x").path == "/é")
    }
}
