/// How a client step ended, as the client reports it.
public enum ClientOutcome: Sendable, Equatable {
    /// The operation completed; for a request, with the final HTTP answer the application saw.
    case success(status: Int, body: String)
    case failure(ClientFailure)

    /// The failure, or nil for a success.
    public var failure: ClientFailure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }

    /// Success with a 2xx status: what "the step succeeds" means.
    public var succeeded: Bool {
        if case .success(let status, _) = self { return (200..<300).contains(status) }
        return false
    }
}
