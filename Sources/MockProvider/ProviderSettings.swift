import Foundation

/// How the provider behaves when no rule says otherwise, plus the rules that make it misbehave.
public struct ProviderSettings: Sendable, Equatable {
    public var client: ClientCredentials
    public var user: UserCredentials
    public var tokens: TokenPolicy
    public var rules: [ProviderRule]
    /// Seeds every random choice the provider makes (latency jitter), so runs repeat exactly.
    public var seed: UInt64
    /// Redirect URIs registered for the client; a loopback one matches on any port (RFC 8252 §7.3).
    public var redirectURIs: [String]
    /// Where a scenario registers none and the client's profile names none: a loopback URI, so any
    /// port matches (RFC 8252 §7.3).
    public static let defaultRedirectURIs = ["http://127.0.0.1/callback"]
    /// With a variant, the provider's primary origin speaks HTTPS and presents that certificate.
    public var tls: CertificateVariant?
    /// When set, every answer carries a `Date` header this far from the clock tokens are issued
    /// on (negative: behind), as from a server whose clock is off; `nil`: no `Date` header.
    public var clockSkew: Duration?
    /// How long, in real time, a client may take to send a request before it is answered 408.
    public var requestTimeouts: RequestTimeouts
    /// OpenID Connect: how ID tokens are signed and which keys the JWKS publishes.
    public var idTokens: IDTokenPolicy
    /// The lifetimes of the tokens the app server on the other origin issues for an ID token.
    public var appServerTokens: TokenPolicy
    /// The clock skew the client under test declares it allows on ID token times, so that rules
    /// can place `exp` or `iat` just beyond it, or just inside it (`fromNowInClientSkews`).
    public var clientIDTokenClockSkew: Duration = .zero
    /// How the client authenticates: its secret, `private_key_jwt` assertions signed with
    /// `RegisteredClientKey.shared`, `client_secret_jwt` assertions MACed with its secret, or not at
    /// all (`.publicClient`, RFC 7591 `none`): a public client, which sends its `client_id` alone and
    /// must use PKCE. A harness registers a public client under test so; a scenario chooses by
    /// `provider.client_authentication`.
    public var clientAuthentication: ClientAuthenticationMethod = .clientSecret
    /// Pushed authorization requests (RFC 9126); `nil`: the endpoint serves pushes, but nothing
    /// requires them and the metadata does not ask for them.
    public var pushedAuthorization: PushedAuthorizationPolicy?
    /// The device authorization grant (RFC 8628): its codes' lifetime and interval, and what the
    /// user does with the code.
    public var deviceAuthorization = DeviceAuthorizationPolicy()
    /// DPoP (RFC 9449); `nil`: not offered, and a `DPoP` header is ignored.
    public var dpop: DPoPPolicy?
    /// A path the issuer identifier has after the origin (`/tenant1`), as a multi-tenant
    /// authorization server's has; `nil`: the issuer is the origin. Its metadata is then served at
    /// the URLs RFC 8414 §3.1 and OpenID Connect Discovery §4 build from it, and no others.
    public var issuerPath: String?
    /// The MCP server's challenge and Protected Resource Metadata.
    public var mcp = MCPServerPolicy()
    /// How the client gets its client ID: registered before the scenario (the default), by
    /// Dynamic Client Registration, or by a Client ID Metadata Document URL.
    public var registration = ClientRegistrationPolicy()

    public init(
        client: ClientCredentials = .init(id: "conformance-client", secret: "conformance-secret"),
        user: UserCredentials = .init(username: "alice", password: "wonderland"),
        tokens: TokenPolicy = .init(),
        rules: [ProviderRule] = [],
        seed: UInt64 = 0,
        redirectURIs: [String] = ProviderSettings.defaultRedirectURIs,
        tls: CertificateVariant? = nil,
        clockSkew: Duration? = nil,
        requestTimeouts: RequestTimeouts = .init(),
        idTokens: IDTokenPolicy = .init(),
        appServerTokens: TokenPolicy = .init()
    ) {
        self.idTokens = idTokens
        self.appServerTokens = appServerTokens
        self.clockSkew = clockSkew
        self.requestTimeouts = requestTimeouts
        self.client = client
        self.user = user
        self.tokens = tokens
        self.rules = rules
        self.seed = seed
        self.redirectURIs = redirectURIs
        self.tls = tls
    }
}

public struct ClientCredentials: Sendable, Equatable {
    public var id: String
    public var secret: String
    public init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    /// The id and secret of HTTP Basic credentials (the part after `Basic `): base64 of the
    /// form-encoded id, a colon and the form-encoded secret (RFC 6749 §2.3.1).
    public init?(basic encoded: String) {
        guard let data = Data(base64Encoded: encoded),
            let decoded = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = decoded.splitASCII(":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        self.init(id: FormField.formDecode(String(parts[0])), secret: FormField.formDecode(String(parts[1])))
    }
}

public struct UserCredentials: Sendable, Equatable {
    public var username: String
    public var password: String
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}

/// Token lifetimes on the virtual clock, and whether a refresh hands out a new refresh token.
public struct TokenPolicy: Sendable, Equatable {
    public var accessLifetime: Duration
    /// `nil`: refresh tokens never expire.
    public var refreshLifetime: Duration?
    /// RFC 6749 §6 / RFC 9700 §4.14: with rotation, every refresh issues a new refresh token
    /// and presenting a superseded one revokes the whole family.
    public var rotateRefreshTokens: Bool
    /// Instants at which every token issued before them is revoked, as a provider does when a
    /// user signs out everywhere or an administrator revokes access.
    public var revokeAllAt: [Duration]

    public init(
        accessLifetime: Duration = .seconds(3600),
        refreshLifetime: Duration? = nil,
        rotateRefreshTokens: Bool = false,
        revokeAllAt: [Duration] = []
    ) {
        self.accessLifetime = accessLifetime
        self.refreshLifetime = refreshLifetime
        self.rotateRefreshTokens = rotateRefreshTokens
        self.revokeAllAt = revokeAllAt
    }
}

/// Real-time bounds on a client sending a request; past either, the client gets 408 and the
/// connection closes. A connection quiet between requests is bounded by the idle timeout
/// (`ServerOptions.idleTimeout`) instead, and closed without an answer.
public struct RequestTimeouts: Sendable, Equatable {
    /// From the first byte of a request's head to its blank line. Each new byte does not restart
    /// it, so a head drip-fed a byte at a time cannot hold the connection forever.
    public var head: Duration
    /// How long a body may go without a byte arriving.
    public var body: Duration

    public init(head: Duration = .seconds(30), body: Duration = .seconds(30)) {
        self.head = head
        self.body = body
    }
}
