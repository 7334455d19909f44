/// `error_messages: reveal_no_credentials`: no error the client reported (its message or type)
/// quotes a token the provider issued, the client secret or the user's password: error texts end
/// up in logs and crash reports.
struct ErrorMessagesCheck: ScenarioCheck {
    static let key = "error_messages"

    /// Its row in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`error_messages: reveal_no_credentials`"#,
            passesWhen:
                #"No error the client reported (its message and type) quotes an issued token (as a whole word), the client secret or the user's password."#
        )
    ]

    static func decode(_ source: CheckSource) -> ErrorMessagesCheck? {
        source.word(among: ["reveal_no_credentials"], otherwise: "error_messages must be 'reveal_no_credentials'")
            .map { _ in ErrorMessagesCheck() }
    }

    var kind: String { "secrecy" }

    var statement: String {
        "no error the client reports quotes a token, the client secret or the user's password"
    }

    func judge(in context: JudgingContext) -> Judgement {
        let quoting = context.clientReports.compactMap { report -> String? in
            guard case .failure(let failure) = report.outcome else { return nil }
            let quoted = context.credentials(quotedIn: failure.message + " " + (failure.errorType ?? ""))
            return quoted.isEmpty ? nil : "\(report.label) quotes \(quoted.joined(separator: ", "))"
        }
        let failures = context.clientReports.count { !$0.outcome.succeeded }
        return Judgement(
            passed: quoting.isEmpty,
            expected: "no credential in any error message",
            observed: quoting.isEmpty
                ? "none in the \(failures) error\(failures == 1 ? "" : "s") reported"
                : quoting.joined(separator: "; ")
        )
    }
}

extension Expectation {
    /// `error_messages: reveal_no_credentials`.
    public static let errorsRevealNoCredentials = Expectation(ErrorMessagesCheck())
}
