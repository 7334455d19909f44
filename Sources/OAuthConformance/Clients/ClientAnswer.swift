/// What a client answers a `ClientCall`. Each call has its kind of answer; any operation may
/// answer `.outcome(.failure(…))` instead, and `ClientCall.unsupported` is the answer of a client
/// that does not implement the call.
public enum ClientAnswer: Sendable, Equatable {
    /// How an operation ended: `login`, `request`, `restart`, the completions and `finishNativeSignIn`, `userinfo`,
    /// `exchangeSignIn`, and the `pollDeviceAuthorization` that ends the flow.
    case outcome(ClientOutcome)
    /// `authorizationURL` and `signInURL`: the URL the browser is to open.
    case browserURL(String)
    /// Any call answered by an outcome (`mcpCall`, `request`, and the `completeAuthorization` that
    /// follows this answer): the library needs the user to authorize at this URL before the call
    /// can end, as an MCP client stepping up its scope does inside the application's call. The
    /// harness's browser visits it as for a sign-in and sends `completeAuthorization` with the
    /// redirect; that answer is the call's, and may ask again, a bounded number of times
    /// (`InCallAuthorization`).
    case needsAuthorization(url: String)
    /// `beginNativeSignIn`: the URL the client asked the system to open, its sign-in waiting.
    case openURL(String)
    /// `startDeviceAuthorization`: what the application shows the user.
    case devicePrompt(DevicePrompt)
    /// `pollDeviceAuthorization` while the user has not acted: the client polls again after this
    /// much time.
    case pollAgain(after: Duration)
    /// `identity`: who the client holds as signed in, `nil` for nobody.
    case identity(SignedInIdentity?)
    /// `storedTokens`: the tokens the client holds, `nil` for none.
    case storedTokens(StoredTokens?)
}

// How the runner reads an answer, in one place. An answer of another kind than the call asked
// for is the client's failure; no client the harness drives can give one, but an in-process
// client could.
extension ClientAnswer {
    /// The outcome of an operation.
    func outcome(answering call: ClientCall) -> ClientOutcome {
        if case .outcome(let outcome) = self { return outcome }
        return .failure(mismatch(answering: call))
    }

    /// The URL of `authorizationURL` or `signInURL`, or the failure that took its place.
    func browserURL(answering call: ClientCall) -> Result<String, ClientFailure> {
        if case .browserURL(let url) = self { return .success(url) }
        return .failure(failure(answering: call))
    }

    /// The URL of `beginNativeSignIn`, or the failure that took its place.
    func openURL(answering call: ClientCall) -> Result<String, ClientFailure> {
        if case .openURL(let url) = self { return .success(url) }
        return .failure(failure(answering: call))
    }

    /// The prompt of `startDeviceAuthorization`, or the failure that took its place.
    func devicePrompt(answering call: ClientCall) -> Result<DevicePrompt, ClientFailure> {
        if case .devicePrompt(let prompt) = self { return .success(prompt) }
        return .failure(failure(answering: call))
    }

    /// Who `identity` says is signed in; nobody for any other answer.
    var signedIn: SignedInIdentity? {
        if case .identity(let identity?) = self { return identity }
        return nil
    }

    /// What `storedTokens` says the client holds; nothing for any other answer.
    var heldTokens: StoredTokens? {
        if case .storedTokens(let tokens?) = self { return tokens }
        return nil
    }

    /// The failure an answer that is not the call's value stands for.
    private func failure(answering call: ClientCall) -> ClientFailure {
        if case .outcome(.failure(let failure)) = self { return failure }
        return mismatch(answering: call)
    }

    private func mismatch(answering call: ClientCall) -> ClientFailure {
        ClientFailure(.unexpected, message: "the client answered \(call.op) with \(self)")
    }
}
