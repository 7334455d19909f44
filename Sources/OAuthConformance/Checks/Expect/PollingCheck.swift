import MockProvider

/// `polling: paced`, RFC 8628 §3.5: each device-code poll comes no sooner after the previous one
/// than the interval of the device authorization response (5 s when it gave none), plus 5 s for
/// every `slow_down` answered so far.
struct PollingCheck: ScenarioCheck {
    static let key = "polling"

    /// Its row in the table of docs/scenario-language/expect.md.
    static let documentation = [
        CheckDocumentation(
            form: #"`polling: paced`"#,
            passesWhen:
                #"RFC 8628 §3.5: each `device_code` poll comes at least the interval after the one before: the interval of the device authorization response (5 s when it gives none), 5 s longer after each `slow_down` answered so far."#
        )
    ]

    static let example: String? = """
        conformance: 1
        id: device/docs-polling-paced
        title: The device authorization is polled no sooner than the interval it names
        area: device
        level: MUST
        spec: [RFC 8628 §3.5]
        provider:
          device_authorization: { interval: 7s, user: { approves_at_poll: 3 } }
        steps:
          - device_sign_in:
            outcome: succeeds
        expect:
          - polling: paced
          - count: { endpoint: token, grant: device_code, exactly: 3 }
        """

    static func decode(_ source: CheckSource) -> PollingCheck? {
        source.word(
            among: ["paced"],
            otherwise:
                "polling must be 'paced' (device-code polls no sooner than the interval, 5 s more after each slow_down)"
        ).map { _ in PollingCheck() }
    }

    var kind: String { "pacing" }

    var statement: String {
        "device_code polls come no sooner than the interval, 5 s longer after each slow_down"
    }

    /// Read off the journal: the interval each device authorization response gave (5 s without
    /// one), 5 s more after each `slow_down`, and every poll measured from the one before.
    func judge(in context: JudgingContext) -> Judgement {
        var interval = Duration.seconds(5)
        var previous: JournalEntry?
        var polls: [Int] = []
        var early: [String] = []
        for entry in context.transcript.journal {
            if entry.endpoint == .deviceAuthorization, entry.response.status == 200 {
                if case .integer(let seconds)? = JSONValue.parse(entry.response.body)?["interval"] {
                    interval = .seconds(seconds)
                } else {
                    interval = .seconds(5)
                }
                previous = nil
                continue
            }
            guard entry.endpoint == .token, entry.grant == .deviceCode else { continue }
            polls.append(entry.sequence)
            if let previous, entry.at - previous.at < interval {
                early.append(
                    "\(context.describe(entry)) came \(DurationText.format(entry.at - previous.at)) after #\(previous.sequence); the interval was \(DurationText.format(interval))"
                )
            }
            if JSONValue.parse(entry.response.body)?["error"]?.stringValue == "slow_down" { interval += .seconds(5) }
            previous = entry
        }
        guard !polls.isEmpty else {
            return Judgement(passed: false, expected: "device_code polls, paced", observed: "no device_code poll")
        }
        return Judgement(
            passed: early.isEmpty,
            expected: "each poll at least the interval after the one before",
            observed: early.isEmpty ? "\(polls.count) polls, none early" : early.prefix(4).joined(separator: "; "),
            evidence: polls
        )
    }
}

extension Expectation {
    /// `polling: paced`.
    public static let devicePollingPaced = Expectation(PollingCheck())
}
