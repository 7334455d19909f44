import Foundation
import MockProvider
import Synchronization
import Testing

@testable import OAuthConformance

/// A native app's sign-in (RFC 8252): the library listens on a loopback port of its own and asks
/// for the authorization URL to be opened; the harness is that browser, and follows the provider's
/// redirect to the listener, and nowhere else.
@Suite("A native app's sign-in through its loopback listener")
struct NativeAppSignInTests {
    /// A provider on loopback, registered as the runner registers clients
    /// (`http://127.0.0.1/callback`) unless told otherwise.
    static func provider(redirectURIs: [String]? = nil) async throws -> (MockProvider, ProviderServer) {
        var settings = ProviderSettings()
        if let redirectURIs { settings.redirectURIs = redirectURIs }
        let provider = MockProvider(settings: settings)
        return (provider, try await ProviderServer.start(provider))
    }

    /// The authorization URL a client would open, sending the browser back to `redirectURI`.
    static func authorizationURL(_ server: ProviderServer, _ provider: MockProvider, redirectURI: String) -> String {
        let endpoint = ProviderEndpoints(baseURL: server.baseURL, appServerOrigin: server.otherOriginURL).authorization
        var components = URLComponents(string: endpoint)!
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: provider.settings.client.id),
            URLQueryItem(name: "redirect_uri", value: redirectURI),
            URLQueryItem(name: "state", value: "s-1"),
        ]
        return components.string!
    }

    @Test(
        "the provider takes the registered loopback redirect URI on any port the client chose (RFC 8252 §7.3), and refuses another path, host or scheme"
    )
    func providerMatchesLoopbackPorts() async throws {
        let (provider, server) = try await Self.provider()
        defer { Task { await server.shutdown() } }
        let browser = AuthorizationBrowser(caCertificateFile: nil)
        for port in [1, 49_152, 65_535] {
            let redirectURI = "http://127.0.0.1:\(port)/callback"
            let visit = try await browser.open(Self.authorizationURL(server, provider, redirectURI: redirectURI))
            guard case .redirected(let location) = visit else {
                Issue.record("port \(port): \(visit)")
                continue
            }
            #expect(location.hasPrefix(redirectURI + "?code="), "\(location)")
        }
        for refused in [
            "http://127.0.0.1:5000/other", "http://localhost:5000/callback", "http://127.0.0.2:5000/callback",
            "https://127.0.0.1:5000/callback", "http://app.example:5000/callback",
        ] {
            let visit = try await browser.open(Self.authorizationURL(server, provider, redirectURI: refused))
            guard case .stopped(400, let page) = visit else {
                Issue.record("\(refused): \(visit)")
                continue
            }
            #expect(page.contains("redirect_uri"), "\(refused): \(page)")
        }
        await server.shutdown()
    }

    @Test(
        "the browser follows the provider's redirect to a loopback listener, which gets code, state and iss, and says what it answered"
    )
    func followsToTheListener() async throws {
        let (provider, server) = try await Self.provider()
        let listener = try await LoopbackListener.start(path: "/callback")
        let url = Self.authorizationURL(
            server,
            provider,
            redirectURI: "http://127.0.0.1:\(listener.port)/callback"
        )
        let answered = await AuthorizationBrowser(caCertificateFile: nil).followToLoopback(from: url)
        let target = await listener.redirectTarget(within: .seconds(5))
        await server.shutdown()
        #expect(try answered.get().hasPrefix("200: <!doctype html><title>Signed in</title>"), "\(answered)")
        let query = try #require(target.flatMap { URLComponents(string: "http://127.0.0.1" + $0) })
        #expect(query.path == "/callback")
        let parameters = Dictionary(uniqueKeysWithValues: (query.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(parameters["state"] == "s-1")
        #expect(parameters["iss"] == provider.issuer)
        #expect(parameters["code"]?.isEmpty == false)
    }

    @Test("the browser does not follow a redirect to a host other than a loopback one, nor over another scheme")
    func refusesOtherHosts() async throws {
        let (provider, server) = try await Self.provider(redirectURIs: ["http://app.example/callback"])
        let url = Self.authorizationURL(server, provider, redirectURI: "http://app.example/callback")
        let answered = await AuthorizationBrowser(caCertificateFile: nil).followToLoopback(from: url)
        await server.shutdown()
        guard case .failure(let problem) = answered else {
            Issue.record("followed: \(answered)")
            return
        }
        #expect(problem.message.contains("http://app.example/callback?code="), "\(problem.message)")
        #expect(problem.message.contains("app.example is not a loopback host"), "\(problem.message)")

        for followed in [
            "http://127.0.0.1:5/cb?code=c", "http://[::1]:5/cb", "http://localhost:5/cb", "HTTP://LOCALHOST/cb",
        ] {
            #expect((try? LoopbackRedirect.checking(followed).get()) == LoopbackRedirect(url: followed), "\(followed)")
        }
        for refused in [
            "https://127.0.0.1:5/cb", "http://127.0.0.2/cb", "http://127.0.0.1.attacker.example/cb",
            "http://localhost.attacker.example/cb", "com.example.app:/cb", "/cb?code=c", "http://[::2]/cb",
        ] {
            #expect(throws: RefusedRedirect.self, "\(refused)") { try LoopbackRedirect.checking(refused).get() }
        }
    }

    /// The reference client signing in by `native_app` alone, as a native app is, public.
    static let nativeApp = SignInMethodTests.referenceClient(signingInBy: .nativeApp, as: .public)

    @Test(
        "the reference client signs in as a native app: its listener answers the browser, the step says so, and the native scenarios pass it",
        arguments: [
            "security/native-app-loopback-sign-in", "security/native-app-state-refused/omit",
            "security/native-app-state-refused/forged",
        ]
    )
    func referenceSignsInAsANativeApp(id: String) async throws {
        let result = await ScenarioRunner().run(try Fixtures.builtInScenario(id), with: Self.nativeApp)
        #expect(result.verdict == .passed, "\(result.verdict) \(result.failedChecks.map(\.summary))")
        guard id == "security/native-app-loopback-sign-in" else { return }
        guard case .client(.success(_, let body))? = result.step(1)?.result else {
            Issue.record("step 1: \(String(describing: result.step(1)))")
            return
        }
        #expect(body.contains("the loopback listener answered the browser 200: <!doctype html>"), "\(body)")
        let authorize = try #require(result.transcript?.journal.first { $0.endpoint == .authorize })
        let redirectURI = try #require(authorize.request.queryItems.first { $0.name == "redirect_uri" }?.value)
        #expect(redirectURI.hasPrefix("http://127.0.0.1:") && redirectURI.hasSuffix("/callback"), "\(redirectURI)")
        #expect(redirectURI != "http://127.0.0.1/callback", "a port of the listener's own")
    }

    @Test(
        "a client registered with a redirect URI of its own (redirect_uri in its profile) is registered and told so: its listener's path, on a port of its own"
    )
    func registeredWithItsOwnRedirectURI() async throws {
        var rootPath = Self.nativeApp
        rootPath.profile.redirectURI = "http://127.0.0.1/"
        let scenario = try Fixtures.builtInScenario("security/native-app-loopback-sign-in")
        let result = await ScenarioRunner().run(scenario, with: rootPath)
        #expect(result.verdict == .passed, "\(result.verdict) \(result.failedChecks.map(\.summary))")
        let authorize = try #require(result.transcript?.journal.first { $0.endpoint == .authorize })
        let redirectURI = try #require(authorize.request.queryItems.first { $0.name == "redirect_uri" }?.value)
        #expect(redirectURI.hasPrefix("http://127.0.0.1:") && redirectURI.hasSuffix("/"), "\(redirectURI)")
        #expect(!redirectURI.hasSuffix("/callback"), "\(redirectURI)")
    }

    @Test(
        "a profile's redirect_uri is an absolute http(s) URI without a fragment, each problem at its line and column"
    )
    func redirectURIInTheProfile() throws {
        func load(_ extra: String) -> AdapterProfileLoader.Result {
            AdapterProfileLoader.decode(
                "profile: 1\nadapter: { command: ./run.sh }\ncapabilities: []\n" + extra,
                file: "p.yaml"
            )
        }
        #expect(
            try #require(load("redirect_uri: http://127.0.0.1/\n").profile).declared.redirectURI == "http://127.0.0.1/"
        )
        #expect(try #require(load("").profile).declared.redirectURI == nil)
        for bad in ["ftp://host/cb", "/callback", "http://127.0.0.1/cb#x"] {
            #expect(
                load("redirect_uri: \"\(bad)\"\n").diagnostics.first?.description.hasPrefix(
                    "p.yaml:4:15: error: redirect_uri is the URI the client is registered with"
                ) == true,
                "\(bad)"
            )
        }
    }

    @Test(
        "the native scenarios catch a native app's bugs, and skip a client that does not sign in as one",
        arguments: [
            ("security/native-app-loopback-sign-in", "native-app-localhost-redirect"),
            ("security/native-app-state-refused/forged", "no-state-check"),
        ]
    )
    func nativeDefectsCaught(id: String, defect: String) async throws {
        let scenario = try Fixtures.builtInScenario(id)
        var broken = try Fixtures.defect(defect).factory
        broken.profile.signInMethods = [.nativeApp]
        #expect(await ScenarioRunner().run(scenario, with: broken).verdict == .failed)
        let web = await ScenarioRunner().run(
            scenario,
            with: SignInMethodTests.referenceClient(signingInBy: .authorizationCode)
        )
        guard case .skipped(let reason) = web.verdict else {
            Issue.record("\(web.verdict)")
            return
        }
        #expect(reason.contains("does not sign in as a native app"), "\(reason)")
        #expect(await ScenarioRunner().run(scenario, with: DoNothingClientFactory()).verdict != .passed)
    }

    @Test("an open_url that is no http(s) URL fails the step, saying so, and the client is not asked to finish")
    func openURLNotWeb() async throws {
        let asked = AskedCalls()
        let factory = ScriptedNativeAppFactory(asked: asked) { call -> ClientAnswer? in
            if call == .beginNativeSignIn { return .openURL("com.example.app:/oauth?x=1") }
            return .outcome(.success(status: 200, body: "{}"))
        }
        let result = await ScenarioRunner().run(
            try Fixtures.builtInScenario("security/native-app-loopback-sign-in"),
            with: factory
        )
        #expect(result.verdict == .failed)
        guard case .client(.failure(let failure))? = result.step(1)?.result else {
            Issue.record("step 1: \(String(describing: result.step(1)))")
            return
        }
        #expect(failure.category == .protocolViolation)
        #expect(failure.message.contains("com.example.app:/oauth?x=1, which is no http(s) URL a browser opens"))
        #expect(asked.calls.first == .beginNativeSignIn && !asked.calls.contains(.finishNativeSignIn), "\(asked.calls)")
    }

    @Test("a client whose sign-in never finishes is stopped at the step's timeout, an error verdict")
    func finishNeverAnswered() async throws {
        let factory = ScriptedNativeAppFactory(asked: AskedCalls(), forwardingTo: ReferenceClientFactory()) {
            call -> ClientAnswer? in
            guard call == .finishNativeSignIn else { return nil }
            try? await Task.sleep(for: .seconds(3600))
            return .outcome(.failure(ClientFailure(.transient, message: "cancelled")))
        }
        let result = await ScenarioRunner(stepTimeout: .seconds(2)).run(
            try Fixtures.builtInScenario("security/native-app-loopback-sign-in"),
            with: factory
        )
        guard case .error(let problem) = result.verdict else {
            Issue.record("\(result.verdict)")
            return
        }
        #expect(problem.contains("step 1 (native_sign_in): the client did not answer within"), "\(problem)")
    }

    @Test(
        "through the reference adapter, out of process, a native app signs in and is judged after its sign-in as in process"
    )
    func throughTheReferenceAdapter() async throws {
        var profile = try AdapterSuiteTests.referenceProfile()
        profile.declared.signInMethods = [.nativeApp]
        let adapter = AdapterClientFactory(profile: profile)
        let scenarios = try [
            "security/native-app-loopback-sign-in", "security/native-app-state-refused/forged",
            "refresh/keeps-refresh-token-when-response-omits-it", "retry/401-on-valid-token-refreshes-once-and-replays",
        ].map(Fixtures.builtInScenario)
        let run = await SuiteRunner(scenarioRunner: profile.scenarioRunner).run(scenarios, with: adapter)
        await adapter.stop()
        for result in run.results {
            #expect(result.verdict == .passed, "\(result.scenario.id): \(AdapterSuiteTests.summary(result))")
        }
        for result in run.results.dropFirst(2) {
            #expect(result.signInMethod == .nativeApp, "\(result.scenario.id)")
        }
    }
}

/// The calls a scripted client was asked, in order.
final class AskedCalls: Sendable {
    private let asked = Mutex<[ClientCall]>([])
    var calls: [ClientCall] { asked.withLock { $0 } }
    func record(_ call: ClientCall) { asked.withLock { $0.append(call) } }
}

/// A client signing in by `native_app` alone whose answers a test scripts; a call the script
/// leaves (`nil`) goes to the client `forwardingTo` makes, or is unsupported.
struct ScriptedNativeAppFactory: ClientFactory {
    let asked: AskedCalls
    var forwardingTo: ReferenceClientFactory?
    let script: @Sendable (ClientCall) async -> ClientAnswer?

    var profile: ClientProfile {
        var profile = ReferenceClientFactory().profile.renamed("scripted-native-app")
        profile.signInMethods = [.nativeApp]
        return profile
    }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        ScriptedClient(asked: asked, forward: try await forwardingTo?.makeClient(for: environment), script: script)
    }

    struct ScriptedClient: ClientUnderTest {
        let asked: AskedCalls
        let forward: (any ClientUnderTest)?
        let script: @Sendable (ClientCall) async -> ClientAnswer?

        func perform(_ call: ClientCall) async -> ClientAnswer {
            asked.record(call)
            if let answer = await script(call) { return answer }
            return await forward?.perform(call) ?? call.unsupported
        }

        func shutdown() async { await forward?.shutdown() }
    }
}
