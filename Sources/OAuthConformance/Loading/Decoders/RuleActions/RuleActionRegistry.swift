import MockProvider

/// Every provider misbehaviour a scenario's rule can name, in the order diagnostics list their
/// keys. `RuleDecoder` reads the keys and decoders from here, and `ScenarioSchemaTests` holds the
/// JSON Schema's rule actions to it: a new misbehaviour is one type in MockProvider's
/// `Rules/Actions/`, its `+ScenarioLanguage` file here, and one line in this list.
enum RuleActionRegistry {
    static let actions: [any ScenarioRuleAction.Type] = [
        ScriptedResponse.self,
        TokenResponseAlteration.self,
        ScriptedOAuthError.self,
        ActionSequence.self,
        Redirect.self,
        AuthorizationResponseAlteration.self,
        RetryLater.self,
        IDTokenAlteration.self,
        DPoPNonceRenewal.self,
        DocumentAlteration.self,
    ]

    static let keys = actions.map { $0.key }
}
