/// Where a device authorization's polling stands after one step.
public enum DevicePoll: Sendable, Equatable {
    /// Still waiting for the user; the client polls again after this much time.
    case waiting(Duration)
    /// The flow ended: tokens obtained, or refused (`access_denied`, `expired_token`, …).
    case finished(ClientOutcome)
}
