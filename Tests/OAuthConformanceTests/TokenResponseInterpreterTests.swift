import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

@Suite("The reference client reads token responses as RFC 6749 §5 says")
struct TokenResponseInterpreterTests {
    let interpreter = TokenResponseInterpreter(behaviour: .conforming)
    let now = Date(timeIntervalSince1970: 1_000_000)
    let previous = TokenSet(accessToken: "old", expiresAt: nil, refreshToken: "rt-old")

    func interpret(_ status: Int, _ body: String) -> Result<TokenSet, ClientFailure> {
        interpreter.interpret(status: status, body: body, receivedAt: now, previous: previous)
    }

    @Test("a normal response: expiry measured from receipt, a lower-case bearer accepted")
    func normal() throws {
        let tokens = try interpret(
            200,
            #"{"access_token":"a","token_type":"bearer","expires_in":60,"refresh_token":"r"}"#
        ).get()
        #expect(
            tokens
                == TokenSet(accessToken: "a", expiresAt: now.addingTimeInterval(60), refreshToken: "r", receivedAt: now)
        )
    }

    @Test(
        "a refresh token that is absent, null or empty leaves the previous one",
        arguments: [
            #"{"access_token":"a","token_type":"Bearer"}"#,
            #"{"access_token":"a","token_type":"Bearer","refresh_token":null}"#,
            #"{"access_token":"a","token_type":"Bearer","refresh_token":""}"#,
        ]
    )
    func keepsRefreshToken(_ body: String) throws {
        #expect(try interpret(200, body).get().refreshToken == "rt-old")
    }

    @Test("expires_in as a numeric string is read; absent means no expiry")
    func expiresIn() throws {
        #expect(
            try interpret(200, #"{"access_token":"a","token_type":"Bearer","expires_in":"30"}"#).get().expiresAt
                == now.addingTimeInterval(30)
        )
        #expect(try interpret(200, #"{"access_token":"a","token_type":"Bearer"}"#).get().expiresAt == nil)
    }

    @Test(
        "expires_in of zero, below zero, null or garbage states no lifetime; a huge one is clamped",
        arguments: [
            ("0", nil), ("-60", nil), ("null", nil), (#""soon""#, nil),
            ("1099511627776", TokenResponseInterpreter.longestLifetime),
        ] as [(String, TimeInterval?)]
    )
    func oddExpiresIn(_ value: String, _ lifetime: TimeInterval?) throws {
        let tokens = try interpret(200, #"{"access_token":"a","token_type":"Bearer","expires_in":\#(value)}"#).get()
        #expect(tokens.expiresAt == lifetime.map(now.addingTimeInterval))
    }

    @Test("a 5xx with a §5.2 body is transient and keeps its code")
    func serverErrorWithCode() {
        #expect(
            interpret(503, #"{"error":"temporarily_unavailable"}"#)
                == .failure(
                    ClientFailure(
                        .transient,
                        oauthError: "temporarily_unavailable",
                        status: 503,
                        message: "token endpoint answered 503 temporarily_unavailable"
                    )
                )
        )
    }

    @Test("§5.2 errors keep their code and map to a category, even inside a 200")
    func errors() {
        #expect(
            interpret(400, #"{"error":"invalid_grant","error_description":"gone"}"#)
                == .failure(
                    ClientFailure(
                        .authorizationRequired,
                        oauthError: "invalid_grant",
                        status: 400,
                        message: "token endpoint answered 400 invalid_grant: gone"
                    )
                )
        )
        #expect(
            interpret(401, #"{"error":"invalid_client"}"#)
                == .failure(
                    ClientFailure(
                        .invalidClient,
                        oauthError: "invalid_client",
                        status: 401,
                        message: "token endpoint answered 401 invalid_client"
                    )
                )
        )
        guard case .failure(let inside200) = interpret(200, #"{"error":"invalid_scope"}"#) else {
            Issue.record("a 200 with an error body was taken as success")
            return
        }
        #expect(inside200.category == .oauthError && inside200.oauthError == "invalid_scope")
    }

    @Test(
        "protocol violations and server errors are told apart",
        arguments: [
            (200, #"{"token_type":"Bearer"}"#, ErrorCategory.protocolViolation),
            (200, #"{"access_token":"a","token_type":"mac"}"#, .protocolViolation),
            (200, #"{"access_token":"a"}"#, .protocolViolation),
            (502, "<html>Bad Gateway</html>", .transient),
            (400, "<html>Bad Request</html>", .protocolViolation),
        ]
    )
    func violations(_ status: Int, _ body: String, _ category: ErrorCategory) {
        guard case .failure(let failure) = interpret(status, body) else {
            Issue.record("\(status) \(body) was taken as success")
            return
        }
        #expect(failure.category == category, "\(failure.message)")
        #expect(failure.oauthError == nil)
    }
}
