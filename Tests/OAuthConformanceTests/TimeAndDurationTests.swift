import MockProvider
import Testing

@testable import OAuthConformance

@Suite("Durations and time expressions")
struct TimeAndDurationTests {
    @Test(
        "durations in human units",
        arguments: [
            ("250ms", Duration.milliseconds(250)), ("120s", .seconds(120)), ("5m", .seconds(300)),
            ("1h30m", .seconds(5400)), ("1d", .seconds(86_400)), ("1.5s", .milliseconds(1500)),
        ]
    )
    func parsesDurations(_ text: String, _ expected: Duration) throws {
        #expect(try DurationText.parse(text).get() == expected)
    }

    @Test("a duration without a unit, or with an unknown one, is refused with a hint")
    func refusesBareNumbers() {
        #expect(throws: DurationSyntaxError("'120' has no unit; write it as 120s (units: ms, s, m, h, d)")) {
            try DurationText.parse("120").get()
        }
        #expect(throws: DurationSyntaxError.self) { try DurationText.parse("5 minutes").get() }
        #expect(throws: DurationSyntaxError.self) { try DurationText.parse("99999999999d").get() }
    }

    @Test("durations print in their shortest exact form")
    func formatsDurations() {
        #expect(DurationText.format(.seconds(90)) == "1m30s")
        #expect(DurationText.format(.milliseconds(250)) == "250ms")
        #expect(DurationText.format(.seconds(3541)) == "59m1s")
        #expect(DurationText.format(.zero) == "0s")
    }

    @Test("a duration past Int64 milliseconds prints exactly, not a trap: a scripted interval of Int.max seconds")
    func formatsHugeDurations() {
        #expect(DurationText.format(.seconds(Int64.max)) == "2562047788015215h30m7s")
        #expect(DurationText.format(.seconds(Int64.max) + .seconds(5)) == "2562047788015215h30m12s")
        #expect(DurationText.format(.zero - .seconds(Int64.max)) == "-2562047788015215h30m7s")
        #expect(DurationText.format(.milliseconds(Int64.max) * 4) == "10248191152060h51m43s228ms")
    }

    @Test("an expression evaluates against issued tokens and the client's declared window")
    func evaluates() throws {
        let expression = try TimeExpression.parse("expiry(access_token#1) - client.refresh_window + 1s").get()
        let token = IssuedToken(
            kind: .access,
            value: "at-1",
            ordinal: 1,
            issuedAt: .seconds(10),
            expiresAt: .seconds(3610),
            subject: "alice",
            family: 1
        )
        let context = TimeContext(issuedTokens: [token], clientRefreshWindow: .seconds(60))
        #expect(try expression.evaluate(in: context).get() == .seconds(3551))
        #expect(expression.description == "expiry(access_token#1) - client.refresh_window + 1s")
        let issued = try TimeExpression.parse("issued(access_token#1)").get()
        #expect(try issued.evaluate(in: context).get() == .seconds(10))
    }

    @Test("an expression that cannot be evaluated says why")
    func unevaluable() throws {
        let context = TimeContext(issuedTokens: [], clientRefreshWindow: nil)
        let expression = try TimeExpression.parse("expiry(access_token#2)").get()
        #expect(
            throws: TimeExpressionProblem("access_token#2 was never issued", unissued: TokenReference(.access, 2))
        ) { try expression.evaluate(in: context).get() }
    }

    @Test("a client that declares no refresh window refreshes at expiry at the earliest: its window is zero")
    func undeclaredWindowIsZero() throws {
        let window = try TimeExpression.parse("client.refresh_window + 1s").get()
        #expect(try window.evaluate(in: TimeContext(issuedTokens: [], clientRefreshWindow: nil)).get() == .seconds(1))
        #expect(
            try window.evaluate(in: TimeContext(issuedTokens: [], clientRefreshWindow: .seconds(60))).get()
                == .seconds(61)
        )
    }

    @Test(
        "syntax errors carry the offset of the problem",
        arguments: [
            ("expiry(acess_token#1)", 7), ("expiry(access_token#1", 21), ("5s 5s", 3), ("5s + soon", 5), ("", 0),
        ]
    )
    func syntaxErrors(_ text: String, _ offset: Int) {
        guard case .failure(let error) = TimeExpression.parse(text) else {
            Issue.record("'\(text)' parsed")
            return
        }
        #expect(error.offset == offset, "\(error.message)")
    }
}
