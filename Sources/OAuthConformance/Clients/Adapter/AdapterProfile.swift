import Foundation

/// `policies.id_token_signature`: whether the client verifies the ID token's signature, or relies on
/// the TLS connection to the token endpoint as OIDC Core §3.1.3.7 step 6 allows a code-flow client.
/// `checked` gives the profile the `id_token_signature` capability; `tls_only` makes the signature
/// scenarios a declared gap.
public enum IDTokenSignaturePolicy: String, Sendable, CaseIterable {
    case checked
    case tlsOnly = "tls_only"
}

/// `policies.dpop_downgrade`: what the client does when it asked for a DPoP-bound token and the token
/// endpoint answered `token_type: Bearer` (RFC 9449 §7.1 leaves it to the client). Each value gives
/// the profile the capability its scenario requires; a `dpop` client must declare one.
public enum DPoPDowngradePolicy: String, Sendable, CaseIterable {
    /// Refuses the tokens: the application learns the server would not bind them.
    case refuse
    /// Takes them as the bearer tokens they are.
    case useAsBearer = "use_as_bearer"

    var capability: Capability {
        switch self {
        case .refuse: .dpopDowngradeRefused
        case .useAsBearer: .dpopDowngradeUsedAsBearer
        }
    }
}

/// A client profile file (docs/adapter-protocol/profile.md): how to start the client's adapter,
/// and what the client declares (`declared`: what it can do, how it signs in, the policies it
/// declares, the scenarios it is known to fail), which reads as the profile's own
/// (`profile.capabilities`).
@dynamicMemberLookup
public struct AdapterProfile: Sendable, Equatable {
    /// The profile file, for reports; `nil` for a profile made in code.
    public var file: String?
    /// The name reports use; `nil` to take the one the adapter gives in `hello`.
    public var name: String?
    /// The program and its arguments (a command written as one string is run by `/bin/sh -c`).
    public var command: [String]
    /// Where the adapter runs.
    public var directory: String
    /// Added to the harness's own environment.
    public var environment: [String: String]
    /// The libfaketime library to preload so the adapter lives on the virtual clock; `nil` when
    /// the adapter reads `now` itself, or has no virtual time at all.
    public var fakeTimeLibrary: String?
    /// How to install the adapter and its library (`adapter.install`: a script or a command), for
    /// the message when it does not start.
    public var install: String?
    /// What the client declares, as the file says it. Each capability must also be in the
    /// adapter's `hello`, except `virtual_clock`, which libfaketime supplies when
    /// `fakeTimeLibrary` is set. Its name and version are the adapter's (`AdapterClientFactory`).
    public var declared: ClientProfile
    public var timeouts: Timeouts

    public struct Timeouts: Sendable, Equatable {
        /// From launch to the answer to `hello`.
        public var start: Duration
        /// For one operation (a whole `concurrently` batch counts as one).
        public var operation: Duration
        /// For every step of one scenario together.
        public var scenario: Duration

        public init(
            start: Duration = .seconds(30),
            operation: Duration = .seconds(15),
            scenario: Duration = .seconds(120)
        ) {
            self.start = start
            self.operation = operation
            self.scenario = scenario
        }
    }

    public init(
        file: String? = nil,
        name: String? = nil,
        command: [String],
        directory: String,
        environment: [String: String] = [:],
        fakeTimeLibrary: String? = nil,
        install: String? = nil,
        declared: ClientProfile,
        timeouts: Timeouts = Timeouts()
    ) {
        self.file = file
        self.name = name
        self.command = command
        self.directory = directory
        self.environment = environment
        self.fakeTimeLibrary = fakeTimeLibrary
        self.install = install
        self.declared = declared
        self.timeouts = timeouts
    }

    /// What the client declares, read and written as the profile's own.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<ClientProfile, Value>) -> Value {
        get { declared[keyPath: keyPath] }
        set { declared[keyPath: keyPath] = newValue }
    }

    /// What the client declares once the harness has supplied what it supplies: a virtual clock
    /// through libfaketime.
    public var effectiveCapabilities: Set<Capability> {
        fakeTimeLibrary == nil ? declared.capabilities : declared.capabilities.union([.virtualClock])
    }

    /// The runner for this client: the adapter's own operation timeout comes first, with the
    /// runner's as a backstop a little later.
    public var scenarioRunner: ScenarioRunner {
        ScenarioRunner(stepTimeout: timeouts.operation + .seconds(5), scenarioTimeout: timeouts.scenario)
    }
}
