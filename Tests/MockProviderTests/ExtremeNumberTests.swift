import Foundation
import MockProvider
import Testing

/// Every number the provider reads from a client, at the extremes: a DPoP proof's `iat`, a client
/// assertion's `iat` and `exp`. None may crash the provider (a trap would end the test process and
/// `conformance run` with it); a value that names no instant between 1970 and 9999 is refused with
/// a description naming the field, and one that does is judged as the instant it is.
// One value at a time: eighteen providers started at once, beside the rest of the parallel run,
// answered late enough for their own read deadlines to reset the connections.
@Suite("Extreme numbers in a client's proofs and assertions are refused, never a crash", .serialized)
struct ExtremeNumberTests {
    static let now = Int(VirtualClock.defaultOrigin.timeIntervalSince1970)

    /// Values a client can put where a NumericDate belongs, and whether each names a readable instant.
    static let values: [(label: String, value: JSONValue, readable: Bool)] = [
        ("1e300", .number(1e300), false),
        ("-1e300", .number(-1e300), false),
        ("2^63", .number(9_223_372_036_854_775_808), false),
        ("-2^63 times 2", .number(-18_446_744_073_709_551_616), false),
        ("the largest Double", .number(.greatestFiniteMagnitude), false),
        ("Int64.max", .integer(.max), false),
        ("Int64.min", .integer(.min), false),
        ("-1", .integer(-1), false),
        ("the string NaN", .string("NaN"), false),
        ("the string Infinity", .string("Infinity"), false),
        ("the string 1e300", .string("1e300"), false),
        ("true", .bool(true), false),
        ("null", .null, false),
        ("an array", .array([.integer(now)]), false),
        ("1e-300", .number(1e-300), true),
        ("now minus a half", .number(Double(now) - 0.5), true),
        ("now plus a half", .number(Double(now) + 0.5), true),
        ("the end of 9999", .integer(253_402_300_799), true),
    ]

    static let refusal = "must be Unix seconds between 1970 and the year 9999"

    /// An unreadable value is refused with `status`, naming the claim; a readable one is judged
    /// by the other rules, whatever they say of it.
    static func expectJudged(
        _ answer: RunningProvider.Answer,
        claim: String,
        readable: Bool,
        refusedWith status: Int,
        _ label: String
    ) {
        let description = answer.json?["error_description"]?.stringValue
        if readable {
            #expect(description != "\(claim) " + refusal, "\(claim) \(label): \(answer.body)")
        } else {
            #expect(answer.status == status, "\(claim) \(label): \(answer.body)")
            #expect(description == "\(claim) " + refusal, "\(claim) \(label)")
        }
    }

    @Test("a DPoP proof's iat", arguments: values)
    func dpopIssuedAt(label: String, value: JSONValue, readable: Bool) async throws {
        var settings = ProviderSettings()
        settings.dpop = DPoPPolicy()
        try await RunningProvider.with(settings) { provider in
            var overrides = DPoPProofKey.Overrides()
            overrides.iat = value
            let proof = DPoPProofKey.es256().proof(url: provider.server.baseURL + "/token", overrides: overrides)
            let answer = try await DPoPTests().tokenRequest(provider, proof: proof)
            Self.expectJudged(answer, claim: "iat", readable: readable, refusedWith: 400, label)
            // Still serving.
            #expect(try await provider.passwordGrant().status == 200)
        }
    }

    @Test("a client assertion's iat and exp", arguments: values)
    func assertionTimes(label: String, value: JSONValue, readable: Bool) async throws {
        try await RunningProvider.with(ClientAssertionTests.settings) { provider in
            for field in ["iat", "exp"] {
                var claims = ClientAssertionTests().correct(provider)
                if field == "iat" { claims.iat = value } else { claims.exp = value }
                let assertion = try await ClientAssertionTests.assertion(claims)
                let answer = try await ClientAssertionTests().tokenRequest(provider, assertion)
                Self.expectJudged(answer, claim: field, readable: readable, refusedWith: 401, label)
            }
        }
    }
}
