/// `client_errors: { at_least: 1 }`: the number of errors the client reported, over every step;
/// as a precondition, that a check of error messages had a message to read.
struct ClientErrorsCheck: ScenarioCheck {
    static let key = "client_errors"

    /// Its row in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`client_errors: { at_least: 1 }`"#,
            passesWhen:
                #"The number of errors the client reported, over every step, is `exactly`, `at_most` or `at_least` the number. As a [precondition](#precondition-no-pass-without-evidence): a check of error messages had a message to read."#
        )
    ]

    let bound: CountBound

    static func decode(_ source: CheckSource) -> ClientErrorsCheck? {
        guard let errors = source.mapping(allowedKeys: CountBound.keys) else { return nil }
        return CountBound.decode(errors, in: source).map(ClientErrorsCheck.init)
    }

    var kind: String { "outcome" }

    var statement: String { "number of errors the client reports is \(bound)" }

    func judge(in context: JudgingContext) -> Judgement {
        // Raised errors only: an HTTP answer handed to the application (a 401, say) is no error.
        let errors = context.clientReports.filter { $0.outcome.failure != nil }
        return Judgement(
            passed: bound.admits(errors.count),
            expected: bound.description,
            observed: "\(errors.count)"
                + (errors.isEmpty ? "" : " (" + errors.prefix(4).map(\.label).joined(separator: ", ") + ")")
        )
    }
}

extension Expectation {
    /// `client_errors: { at_least: 1 }`: `.clientErrors(.atLeast(1))`.
    public static func clientErrors(_ bound: CountBound) -> Expectation {
        Expectation(ClientErrorsCheck(bound: bound))
    }
}
