/// What a misbehaviour may draw on to answer a request: the request, the correct answer on
/// demand, and the parts of the provider some misbehaviours read. The provider builds one for each
/// request a rule takes.
public struct MisbehaviourContext {
    let request: ProviderRequest
    /// `nil`: a path the provider does not serve.
    let endpoint: Endpoint?
    let clock: VirtualClock
    let origins: OriginBook
    let journal: Journal
    /// `nil`: the scenario offers no DPoP.
    let dpop: DPoPGate?
    /// Serves the request as if no rule had taken it; only on demand, because serving has effects
    /// (tokens issued, codes redeemed).
    let correctAnswer: () -> ProviderResponse
    /// Serves the token request as `correctAnswer` would, issuing an ID token altered this way.
    let tokenAnswer: (IDTokenAlteration) -> ProviderResponse
}
