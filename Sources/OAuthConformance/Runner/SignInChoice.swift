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
            return Self.mayNeedAUsersSession(scenario)
                ? "it signs in no user, and obtains no refresh token" : nil
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
            // The session is what the application saved from its earlier sign-in, which the harness
            // sends for it as the client is registered (`MockProvider.signInForASavedSession`).
            if scenario.provider.clientAuthentication.usesAssertions {
                return
                    "the client authenticates with assertions of its own key, which an earlier sign-in made for it cannot sign"
            }
            if scenario.provider.dpop != nil {
                return "a DPoP-bound session needs the key it is bound to, which saved tokens do not carry"
            }
            // A scripted answer to that sign-in is saved as it stands when it states what a saved
            // session holds; an odd statement (a lifetime that is no whole number of seconds, a
            // token type other than Bearer, an altered body) is about reading a token response,
            // which a client given saved tokens never does.
            let oddSignInAnswer = scenario.provider.rules.contains { rule in
                SignInMethod.mayEndASignIn(endpoint: rule.match.endpoint, grant: rule.match.grant)
                    && (rule.delivery != nil || rule.action?.contains { !Self.savedAsItStands($0) } == true)
            }
            if oddSignInAnswer {
                return
                    "a rule scripts the sign-in's token response beyond what a saved session holds, which a client given saved tokens never reads"
            }
            return nil
        case .mcpDiscovery:
            // An MCP client finds the authorization server by discovery and pushes nothing.
            return scenario.provider.pushedAuthorization?.required == true
                ? "the provider requires pushed authorization requests, which an MCP client's sign-in does not make"
                : nil
        case .authorizationCode, .nativeApp, .device, .password:
            return nil
        }
    }

    /// Whether the scenario may need what only a user's sign-in gives: a refresh token (a rule or
    /// a check about one, a token that may expire on the way, a revocation) or a user's own
    /// endpoints. A client credentials token suits the rest: a proof, a nonce, a call.
    static func mayNeedAUsersSession(_ scenario: Scenario) -> Bool {
        let usesTheUser = scenario.steps.contains { step in
            switch step.action {
            case .advance, .advanceTo, .wait, .revoke, .moveMCPServer: true
            case .client(.signInAsTheClientDoes), .client(.request), .concurrently(_, .request): false
            case .client, .concurrently: true
            }
        }
        let aboutRefresh =
            scenario.provider.rules.contains { $0.match.grant == .refreshToken }
            || (scenario.expectations + scenario.preconditions).contains { $0.statement.contains("refresh") }
        return usesTheUser || aboutRefresh
    }

    /// Whether a rule's answer to the sign-in leaves a session an application saves as it stands:
    /// a token response with members added or left out, an ordinary lifetime, Bearer in any case
    /// (RFC 6749 §5.1: the type is case-insensitive; the session keeps it as the provider wrote it,
    /// for the library to read), nothing else changed.
    static func savedAsItStands(_ misbehaviour: any ProviderMisbehaviour) -> Bool {
        guard let alteration = misbehaviour as? TokenResponseAlteration else { return false }
        let held = ["access_token", "refresh_token"]
        guard !alteration.formEncoded, alteration.contentType == nil, alteration.truncatedTo == nil,
            alteration.omit.isDisjoint(with: ["access_token", "token_type"]),
            alteration.set.keys.allSatisfy({ !held.contains($0) })
        else { return false }
        if let type = alteration.set["token_type"], type.stringValue?.lowercased() != "bearer" { return false }
        if let lifetime = alteration.set["expires_in"], SavedSession.ordinaryLifetime(lifetime) == nil { return false }
        if let scope = alteration.set["scope"], scope.stringValue == nil { return false }
        return true
    }
}
