/// The `op` of a message of the adapter protocol: every message the harness sends, by its name
/// on the wire (docs/adapter-protocol.md, Schemas/adapter-1.schema.json). Those that ask the
/// client something are `ClientCall`s (`ClientCall.op`); the others run the session.
package enum AdapterOp: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The handshake, once per process: the protocol version and what the adapter offers.
    case hello
    /// A scenario begins: a fresh client for `environment` (`ClientEnvironment`).
    case reset
    case login
    case request
    case authorizationURL = "authorization_url"
    case mcpAuthorizationURL = "mcp_authorization_url"
    case completeAuthorization = "complete_authorization"
    case signInURL = "sign_in_url"
    case completeSignIn = "complete_sign_in"
    case beginNativeSignIn = "begin_native_sign_in"
    case finishNativeSignIn = "finish_native_sign_in"
    case userinfo
    case exchange
    case deviceAuthorization = "device_authorization"
    case devicePoll = "device_poll"
    case identity
    case tokens
    case restoreTokens = "restore_tokens"
    case restart
    /// Several `login`, `request` or `restart` operations at once.
    case concurrently
    /// Virtual time moved.
    case advance
    /// The scenario is over.
    case end
    /// The run is over: the adapter answers and exits.
    case shutdown

    /// The name on the wire, as messages about the adapter quote it.
    package var description: String { rawValue }
}
