import Foundation
import MockProvider

@testable import OAuthConformance

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client seen in a real library family: it keeps the user's password, and while one caller
/// refreshes an expired token every other caller signs in again with that password instead of
/// waiting. Twenty concurrent calls make one refresh and nineteen password grants, which a count
/// of refresh grants alone takes for single-flight.
struct PasswordFallbackClientFactory: ClientFactory {
    var profile: ClientProfile {
        ClientProfile(
            name: "password-fallback",
            version: "1",
            capabilities: [.virtualClock, .concurrency],
            refreshWindow: nil
        )
    }

    func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        PasswordFallbackClient(environment: environment)
    }
}

actor PasswordFallbackClient: LoginAndRequestClient {
    let environment: ClientEnvironment
    private var accessToken = ""
    private var refreshToken = ""
    private var expiresAt = Date.distantFuture
    private var refreshing = false
    /// Callers that found a refresh under way and signed in again instead.
    private var fallbacks = 0
    /// How many other callers the refresh waits for, so that each of them meets it under way
    /// whatever the scheduling (the scenario makes twenty calls at once).
    static let otherCallers = 19

    init(environment: ClientEnvironment) {
        self.environment = environment
    }

    func login(_ grant: GrantType) async -> ClientOutcome {
        await obtain("grant_type=password&username=\(environment.user.username)&password=\(environment.user.password)")
    }

    func request(method: String, url: String) async -> ClientOutcome {
        // A caller that meets a refresh under way signs in again whatever the expiry says: an
        // earlier fallback's fresh token must not stop the later callers from falling back too,
        // or the count would depend on how quickly the twenty tasks start.
        if refreshing {
            fallbacks += 1
            _ = await login(.password)
        } else if environment.clock.now >= expiresAt {
            refreshing = true
            // As over a slow network: the refresh is still under way when the others come in,
            // however the tasks are scheduled and however loaded the machine (bounded: 20 s
            // at most; a parallel test run once took longer than 2 s to start them all).
            for _ in 0..<4000 where fallbacks < Self.otherCallers {
                try? await Task.sleep(for: .milliseconds(5))
            }
            _ = await obtain("grant_type=refresh_token&refresh_token=\(refreshToken)")
            refreshing = false
        }
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        return await request.clientOutcome()
    }

    func shutdown() async {}

    private func obtain(_ form: String) async -> ClientOutcome {
        var request = URLRequest(url: URL(string: environment.endpoints.token)!)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let credentials = Data("\(environment.client.id):\(environment.client.secret)".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(form.utf8)
        let askedAt = environment.clock.now
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            let members = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
            accessToken = members["access_token"] as? String ?? accessToken
            refreshToken = members["refresh_token"] as? String ?? refreshToken
            if let lifetime = members["expires_in"] as? Double {
                expiresAt = askedAt.addingTimeInterval(lifetime)
            }
            return .success(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: "")
        } catch {
            return .failure(ClientFailure(.transient, message: "\(error)"))
        }
    }
}
