import Foundation
import MockProvider
// Not @testable: the README's example needs the public API only.
import OAuthConformance
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The README's example of a Swift client tested in process, exactly as the README shows it (the
// test below holds the two equal), followed by the library it stands for.

struct MyClient: ClientUnderTest {
    let oauth: MyOAuthClient
    let user: UserCredentials

    func perform(_ call: ClientCall) async -> ClientAnswer {
        switch call {
        case .login(.password): .outcome(await oauth.signIn(username: user.username, password: user.password))
        case .request(let method, let url): .outcome(await oauth.send(method, to: url))
        default: call.unsupported
        }
    }

    func shutdown() async {}
}

struct MyClientFactory: ClientFactory {
    var profile: ClientProfile {
        ClientProfile(name: "my-client", version: "1.0", capabilities: [], refreshWindow: nil)
    }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        MyClient(
            oauth: MyOAuthClient(tokenEndpoint: environment.endpoints.token, client: environment.client),
            user: environment.user
        )
    }
}

/// What the README's example drives, standing in for the client library under test: the password
/// grant, then calls with the access token it got.
actor MyOAuthClient {
    let tokenEndpoint: String
    let client: ClientCredentials
    private var accessToken = ""

    init(tokenEndpoint: String, client: ClientCredentials) {
        self.tokenEndpoint = tokenEndpoint
        self.client = client
    }

    func signIn(username: String, password: String) async -> ClientOutcome {
        var request = URLRequest(url: URL(string: tokenEndpoint)!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let credentials = Data("\(client.id):\(client.secret)".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data("grant_type=password&username=\(username)&password=\(password)".utf8)
        let outcome = await request.clientOutcome()
        if case .success(_, let body) = outcome,
            let members = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        {
            accessToken = members["access_token"] as? String ?? ""
        }
        return outcome
    }

    func send(_ method: String, to url: String) async -> ClientOutcome {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        return await request.clientOutcome()
    }
}

@Suite("The README's in-process example")
struct ReadmeExampleTests {
    @Test("the README shows the example this file compiles")
    func readmeShowsThisCode() throws {
        let readme = try String(contentsOf: PackageFiles.root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let start = try #require(readme.range(of: "```swift\nstruct MyClient: ClientUnderTest {"))
        let end = try #require(readme.range(of: "\n```\n", range: start.upperBound..<readme.endIndex))
        let example = String(readme[readme.index(start.lowerBound, offsetBy: "```swift\n".count)..<end.lowerBound])
        #expect(source.contains(example + "\n"), "README.md's example differs from \(#fileID)")
    }

    @Test("the example's client passes a scenario it can play, and answers a call it lacks unsupported")
    func exampleRuns() async throws {
        let scenario = Scenario(
            id: "readme/example",
            title: "The README's client logs in and calls the resource",
            area: .errors,
            level: .must,
            steps: [.login(.password), .request("GET", "/resource")],
            expectations: [.everyStepSucceeds]
        )
        let result = await ScenarioRunner().run(scenario, with: MyClientFactory())
        #expect(result.verdict == .passed, "\(result.verdict)")
        let client = MyClient(
            oauth: MyOAuthClient(
                tokenEndpoint: "http://127.0.0.1:1/token",
                client: ClientCredentials(id: "c", secret: "s")
            ),
            user: UserCredentials(username: "u", password: "p")
        )
        guard case .outcome(.failure(let failure)) = await client.perform(.userinfo) else {
            Issue.record("userinfo is not answered with a failure")
            return
        }
        #expect(failure.category == .unsupported)
    }
}
