/// Answer with a redirect to the same path and query elsewhere.
public struct Redirect: ProviderMisbehaviour {
    public enum Target: Sendable, Equatable {
        /// The provider's second origin (another port): a cross-origin redirect.
        case otherOrigin
        /// Any base URL, e.g. `http://127.0.0.1:8080`.
        case base(String)
    }

    /// 302, 303, 307 or 308.
    public var status: Int
    public var target: Target

    public init(status: Int = 307, to target: Target) {
        self.status = status
        self.target = target
    }

    public func answer(_ context: MisbehaviourContext) -> ProviderResponse {
        let base: String? =
            switch target {
            case .otherOrigin: context.origins.current?.other
            case .base(let url): url
            }
        guard let base else {
            return ProviderResponse(status: 500, body: "redirect target unknown: the provider is not served\n")
        }
        return ProviderResponse(status: status, headers: [HeaderField("Location", base + context.request.target)])
    }
}

extension RuleAction {
    public static func redirect(_ redirect: Redirect) -> RuleAction { RuleAction(redirect) }
}
