import Foundation
import MockProvider

/// A client being judged, for one scenario: a fresh instance per scenario, so no state leaks
/// between scenarios. Implement it to test a Swift client in process.
///
/// Only `login`, `request` and `shutdown` are required. The other operations have defaults that
/// report them unsupported; a client that implements one declares the matching `Capability`, and
/// scenarios that need a capability the client lacks are skipped with the reason.
public protocol ClientUnderTest: Sendable {
    /// Obtains tokens with the grant (not `authorization_code`, which starts with `authorizationURL`).
    func login(_ grant: GrantType) async -> ClientOutcome
    /// The authorization code flow's first half (RFC 6749 §4.1.1): the URL the client would open
    /// in the user's browser. The harness plays the browser and the user against the provider.
    func authorizationURL() async -> Result<String, ClientFailure>
    /// The flow's second half: the URL the browser was redirected to. The client checks it
    /// (`state`, `iss`, `error`) and redeems the code (RFC 6749 §4.1.2–4.1.3).
    func completeAuthorization(redirectURL: String) async -> ClientOutcome
    /// OpenID Connect sign-in's first half: the authentication request (OIDC Core §3.1.2.1) the
    /// client would open in the browser, with `openid` in `scope` and a fresh `nonce`. The client
    /// finds the provider through `ProviderEndpoints.openIDConfiguration`.
    func signInURL() async -> Result<String, ClientFailure>
    /// Sign-in's second half: the client redeems the code and validates the ID token (§3.1.3.7).
    /// A refused ID token is a failure of category `id_token` whose message says which rule it
    /// broke; the tokens of that response must then be dropped. On success `identity()` reports
    /// who signed in.
    func completeSignIn(redirectURL: String) async -> ClientOutcome
    /// Fetches the signed-in user's claims from the userinfo endpoint (§5.3), as the application
    /// would: success's body is the claims the client accepted, as JSON; a response about another
    /// user is a failure of category `userinfo` (§5.3.2).
    func userinfo() async -> ClientOutcome
    /// The user the client holds as signed in: the `iss` and `sub` of the ID token it accepted
    /// last; `nil` when nobody is signed in. The runner asks after every step of a client that
    /// declares `openid`, so a silent change of user shows in the timeline and fails `same_user`.
    func identity() async -> SignedInIdentity?
    /// Leg 2 of a third-party sign-in: trades the signed-in user's ID token at the app's own server
    /// (`ProviderEndpoints.appServerToken`) for the app's own tokens, by RFC 8693 token
    /// exchange (`subject_token_type` `urn:ietf:params:oauth:token-type:id_token`) or the RFC 7523
    /// JWT bearer grant. With nobody signed in (leg 1 failed), `authorization_required` and no
    /// request. A refusal by the app server is category `exchange_refused` (a 5xx, `transient`),
    /// never one of leg 1's, and the user stays signed in with the provider. Afterwards `request`
    /// to the app server's origin carries the app's tokens, refreshed at the app server.
    func exchangeSignIn() async -> ClientOutcome
    /// The device authorization grant's start (RFC 8628 §3.1–3.3): the client asks the provider's
    /// device authorization endpoint (`ProviderEndpoints.deviceAuthorization`) and
    /// reports what the application shows the user.
    func startDeviceAuthorization() async -> Result<DevicePrompt, ClientFailure>
    /// One step of the polling (RFC 8628 §3.4–3.5): the client polls the token endpoint when its
    /// own rules say so, and answers how long it waits before the next poll, or how the flow ended.
    /// The harness moves the virtual clock by that wait and asks again, so minutes of polling cost
    /// milliseconds. `access_denied` and `expired_token` end the flow as failures with that code.
    func pollDeviceAuthorization() async -> DevicePoll
    /// Calls the protected resource the way the application would, letting the client attach,
    /// refresh and replay tokens as it sees fit.
    func request(method: String, url: String) async -> ClientOutcome
    /// As if the application were relaunched: everything held in memory is gone, what the client
    /// persisted (in `ClientEnvironment.storageDirectory`, say) is loaded again.
    func restart() async -> ClientOutcome
    /// The tokens the client holds now, as it would use them; `nil` when it holds none.
    func storedTokens() async -> StoredTokens?
    /// Makes the calls all at once, as a `concurrently` step asks: one outcome each, in order.
    /// The default starts each call in a task of its own.
    func perform(concurrently calls: [ClientCall]) async -> [ClientOutcome]
    /// Virtual time moved (an `advance` step). An in-process client reads `ClientEnvironment.clock`
    /// whenever it likes; this is for a client with timers of its own, or one that must be told.
    func clockAdvanced() async
    /// Why the client can no longer be driven, once it cannot: an adapter process that crashed,
    /// printed something that is not the protocol, or did not answer in time. The runner asks
    /// after every step and ends the scenario with an error verdict that quotes this.
    func fault() async -> String?
    /// What the client printed during the scenario (an adapter's stderr), for the report.
    func capturedOutput() async -> String?
    /// Releases connections and other resources.
    func shutdown() async
}

extension ClientUnderTest {
    public func authorizationURL() async -> Result<String, ClientFailure> {
        .failure(ClientFailure(.unsupported, message: "this client does not implement the authorization code flow"))
    }

    public func completeAuthorization(redirectURL: String) async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client does not implement the authorization code flow"))
    }

    public func restart() async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client cannot be restarted"))
    }

    public func signInURL() async -> Result<String, ClientFailure> {
        .failure(ClientFailure(.unsupported, message: "this client does not implement OpenID Connect sign-in"))
    }

    public func completeSignIn(redirectURL: String) async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client does not implement OpenID Connect sign-in"))
    }

    public func userinfo() async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client does not implement the userinfo call"))
    }

    public func identity() async -> SignedInIdentity? { nil }

    public func startDeviceAuthorization() async -> Result<DevicePrompt, ClientFailure> {
        .failure(ClientFailure(.unsupported, message: "this client does not implement the device authorization grant"))
    }

    public func pollDeviceAuthorization() async -> DevicePoll {
        .finished(
            .failure(
                ClientFailure(.unsupported, message: "this client does not implement the device authorization grant")
            )
        )
    }

    public func exchangeSignIn() async -> ClientOutcome {
        .failure(ClientFailure(.unsupported, message: "this client does not exchange ID tokens at an app server"))
    }

    public func storedTokens() async -> StoredTokens? { nil }

    public func perform(concurrently calls: [ClientCall]) async -> [ClientOutcome] {
        await withTaskGroup(of: (Int, ClientOutcome).self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask { (index, await call.perform(on: self)) }
            }
            var outcomes: [(Int, ClientOutcome)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    public func clockAdvanced() async {}

    public func fault() async -> String? { nil }

    public func capturedOutput() async -> String? { nil }
}
