import Foundation
import MockProvider
import NIOCore

/// Makes a reference client per scenario, reading the scenario's virtual clock.
public struct ReferenceClientFactory: ClientFactory {
    public var behaviour: ClientBehaviour
    public var profile: ClientProfile
    /// Generous, so that a CI machine under load never turns a slow answer into a failure; no
    /// built-in scenario waits for it (a provider that never answers would cost this much per client).
    public var requestTimeout: TimeAmount = .seconds(10)

    public init(behaviour: ClientBehaviour = .conforming, name: String = "reference") {
        self.behaviour = behaviour
        // A defective variant declares what the conforming client declares; only its behaviour differs.
        self.profile = ClientProfile(
            name: name,
            version: Harness.version,
            capabilities: [
                .proactiveRefresh, .refreshOn401, .authorizationCode, .restart, .customCA, .pinning, .virtualClock,
                .concurrency, .openID, .idTokenSignature, .idTokenExchange, .privateKeyJWT,
                .clientSecretJWT, .pushedAuthorizationRequests, .deviceGrant, .dpop, .dpopDowngradeRefused,
                .mcpDiscovery, .dynamicRegistration, .clientIDMetadataDocument, .mcpLegacyDiscovery,
            ],
            // The password grant first: the quickest, and the one the selftest's defects are written against.
            signInMethods: [
                .password, .authorizationCode, .nativeApp, .openID, .device, .tokens, .clientCredentials, .mcpDiscovery,
            ],
            clientIDMetadataURL: Self.clientIDMetadataURL,
            refreshWindow: ClientBehaviour.conforming.refreshLeeway,
            idTokenClockSkew: ClientBehaviour.conforming.openIDConnect.allowedClockSkew,
            jwksRefetchInterval: ClientBehaviour.conforming.openIDConnect.minimumKeySetRefetchInterval
        )
    }

    /// Where the reference client's Client ID Metadata Document would be published: its
    /// `client_id` at an authorization server that takes them. No provider fetches it.
    public static let clientIDMetadataURL = "https://reference-client.example/oauth/client-metadata.json"

    public func makeClient(for environment: ClientEnvironment) async throws -> any ClientUnderTest {
        ReferenceClient(environment: environment, behaviour: behaviour, requestTimeout: requestTimeout)
    }
}
