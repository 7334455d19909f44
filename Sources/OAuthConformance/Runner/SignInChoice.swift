import MockProvider

/// How a scenario whose sign-in is the client's (`sign_in: any`) signs in a given client: the
/// first method of its profile's `sign_in` list the scenario can use. A method the scenario cannot
/// use is one that would leave its checks without evidence, never one a client might fail at.
enum SignInChoice: Equatable {
    /// The scenario has no `sign_in: any` step.
    case notNeeded
    case method(SignInMethod)
    /// None of the client's methods fits the scenario: a skip, with why.
    case none(reason: String)

    init(for scenario: Scenario, declared methods: [SignInMethod]) {
        guard scenario.steps.contains(where: { $0.action.signsInTheClientsWay }) else {
            self = .notNeeded
            return
        }
        var passedOver: [String] = []
        for method in methods {
            if let reason = Self.unfit(method, for: scenario) {
                passedOver.append("\(method.rawValue) (\(reason))")
            } else {
                self = .method(method)
                return
            }
        }
        self = .none(
            reason: "the client signs in by \(methods.map(\.rawValue).joined(separator: ", ")) only (sign_in), and "
                + "this scenario cannot use "
                + (passedOver.count == 1 ? "it: " : "them: ") + passedOver.joined(separator: "; ")
        )
    }

    /// Why the scenario cannot use `method`, or `nil` when it can.
    static func unfit(_ method: SignInMethod, for scenario: Scenario) -> String? {
        switch method {
        case .clientCredentials:
            return "it signs in no user, and obtains no refresh token"
        case .openID:
            // An ID token is an unknown member to an OAuth client, but one a relying party must validate.
            let scriptsAnIDToken = scenario.provider.rules.contains { rule in
                rule.action?.contains { ($0 as? TokenResponseAlteration)?.set["id_token"] != nil } ?? false
            }
            return scriptsAnIDToken
                ? "a rule puts an ID token of its own in the token response, which OpenID Connect sign-in must validate"
                : nil
        case .tokens:
            if scenario.steps.contains(where: {
                $0.action.signsInTheClientsWay && $0.expectedOutcome?.isFailure == true
            }) {
                return "the scenario's sign-in must fail, and handing over saved tokens cannot"
            }
            // Saved tokens come with no token response: a scenario that scripts the sign-in's would
            // pass a client that never read one, and one that counts it would fail it for nothing.
            if scenario.provider.rules.contains(where: {
                SignInMethod.mayEndASignIn(endpoint: $0.match.endpoint, grant: $0.match.grant)
            }) {
                return "a rule scripts the sign-in's token response, which a client given saved tokens never reads"
            }
            let signInSteps = scenario.steps.numbersSigningInTheClientsWay
            let counted = (scenario.expectations + scenario.preconditions).flatMap(\.check.countedRequests)
            if counted.contains(where: { $0.takesTheSignInsTokenRequest(signInSteps: signInSteps) }) {
                return "a check counts the sign-in's token request, which a client given saved tokens never makes"
            }
            return nil
        case .authorizationCode, .device, .password:
            return nil
        }
    }
}
