/// How the runner carries out a `ClientOperation`: which calls it makes of the client, and what
/// the harness does between them.
enum OperationPlan: Sendable {
    /// One call; its outcome is the operation's.
    case call(ClientCall)
    /// The authorization code flow's two halves around the harness's browser: `start` names the
    /// URL, the browser visits it (the provider plays the consenting user), and `complete` gets
    /// the URL the provider redirected to.
    case throughBrowser(start: ClientCall, complete: @Sendable (_ redirectURL: String) -> ClientCall)
    /// RFC 8252, a native app's sign-in: `begin` names the URL the client asks the system to open
    /// while its own loopback listener waits, the browser visits it and follows the provider's
    /// redirect to that listener (`LoopbackRedirect`), and `finish` gets how the client's sign-in ended.
    case throughLoopback(begin: ClientCall, finish: ClientCall)
    /// RFC 8628: `start` reports what the user is shown, then `poll` until the flow ends, the
    /// virtual clock moved by each wait the client asks for.
    case devicePolling(start: ClientCall, poll: ClientCall)
    /// The `tokens` sign-in: the earlier sign-in the harness sends for the application makes a
    /// session, which `restore` hands the client as the application's saved tokens.
    case restoredSession(restore: @Sendable (_ saved: SavedSession) -> ClientCall)

    /// How many operations' worth of real time the plan gets before the runner gives up on it (each
    /// call is bounded by the client's own operation timeout besides). A device authorization is
    /// polled until it ends, a hundred polls and more for a code nobody approves, each a message to
    /// the client: on a loaded machine those took longer than one operation's time.
    var realTimeShare: Int {
        if case .devicePolling = self { return 6 }
        return 1
    }

    /// The capability the plan's calls need; they all need the same one (`ClientCall.requiredCapability`).
    var requiredCapability: Capability? {
        switch self {
        case .call(let call), .throughBrowser(let call, _), .throughLoopback(let call, _), .devicePolling(let call, _):
            call.requiredCapability
        case .restoredSession: nil
        }
    }
}
