import MockProvider

/// What the provider's device authorization response gave the client to show the user (RFC 8628
/// §3.2), read from the journal, and how the prompt the client reported departs from it.
struct DevicePromptIssued {
    let userCode: String
    let verificationURI: String
    let verificationURIComplete: String?

    /// The latest successful device authorization response; `nil` when there is none to compare with.
    init?(journal: Journal) {
        guard
            let entry = journal.entries.last(where: { $0.endpoint == .deviceAuthorization && $0.response.status == 200 }
            ),
            let members = JSONValue.parse(entry.response.body),
            let userCode = members["user_code"]?.stringValue,
            let verificationURI = members["verification_uri"]?.stringValue
        else { return nil }
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = members["verification_uri_complete"]?.stringValue
    }

    /// Why the user could not act on the prompt, or `nil` when they could. Leaving out a
    /// `verification_uri_complete` the provider gave is the application's choice (catalogue DF-06).
    func mismatch(with prompt: DevicePrompt) -> String? {
        if prompt.userCode != userCode {
            return "the application showed user code \(prompt.userCode), but the provider issued \(userCode)"
        }
        if prompt.verificationURI != verificationURI {
            return
                "the application sent the user to \(prompt.verificationURI), but the provider's verification_uri is \(verificationURI)"
        }
        if let shown = prompt.verificationURIComplete, shown != verificationURIComplete {
            return verificationURIComplete.map {
                "the application showed the complete URI \(shown), but the provider's verification_uri_complete is \($0)"
            }
                ?? "the application showed the complete URI \(shown), which the provider never gave (no verification_uri_complete)"
        }
        return nil
    }
}
