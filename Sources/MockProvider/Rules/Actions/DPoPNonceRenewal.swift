/// RFC 9449 §8.2, §9: the server (the token endpoint's, or the resource's) moves to a new DPoP
/// nonce and answers `use_dpop_nonce` with it.
public struct DPoPNonceRenewal: ProviderMisbehaviour {
    public init() {}

    public func answer(_ context: MisbehaviourContext) -> ProviderResponse {
        context.dpop?.renewedNonceDemand(at: context.endpoint)
            ?? ProviderResponse(status: 500, body: "dpop_nonce: the scenario offers no DPoP\n")
    }
}

extension RuleAction {
    public static let renewDPoPNonce = RuleAction(DPoPNonceRenewal())
}
