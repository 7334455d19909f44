/// One row of the table of checks in docs/scenario-language/expect.md: a form a check takes in
/// `expect:` and when it passes. Each check writes its rows beside its code
/// (`ScenarioCheck.documentation`), and `conformance list --format markdown --pages docs/checks`
/// puts them into the page, so that a new check is documented where it is written.
struct CheckDocumentation: Sendable, Equatable {
    /// `` `count: { endpoint: token, grant: refresh_token, exactly: 1 }` ``: Markdown.
    var form: String
    /// Markdown.
    var passesWhen: String
}
