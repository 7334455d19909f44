import Foundation
import MockProvider
import Testing

@testable import OAuthConformance

/// The one table from what a client surfaced (status, RFC 6749 §5.2 code) to an error category,
/// and how an adapter's `ok: false` answer is read through it: the harness derives the category,
/// so adapters keep no table of their own and cannot disagree.
@Suite("Error categories derived from what the client surfaced")
struct SurfacedErrorTests {
    @Test(
        "a code decides by the one table: a dead grant, a denial or an expired device code is a new sign-in, invalid_client the client's credentials, any other code oauth_error",
        arguments: [
            ("invalid_grant", ErrorCategory.authorizationRequired),
            ("access_denied", .authorizationRequired),
            ("expired_token", .authorizationRequired),
            ("invalid_client", .invalidClient),
            ("invalid_request", .oauthError),
            ("invalid_scope", .oauthError),
            ("temporarily_unavailable", .oauthError),
            ("a_vendor_code", .oauthError),
        ]
    )
    func code(_ code: String, _ category: ErrorCategory) {
        #expect(SurfacedError(oauthError: code).category == category)
        #expect(SurfacedError(status: 400, oauthError: code).category == category)
    }

    @Test(
        "a 5xx or 429 is transient whatever code its body carried; any other status decides nothing",
        arguments: [500, 502, 503, 504, 429, 599]
    )
    func serverTrouble(_ status: Int) {
        #expect(SurfacedError(status: status).category == .transient)
        #expect(SurfacedError(status: status, oauthError: "temporarily_unavailable").category == .transient)
        #expect(SurfacedError(status: status, oauthError: "invalid_grant").category == .transient)
        #expect(SurfacedError(status: status, reportedCategory: .protocolViolation).category == .transient)
    }

    @Test("a status that is no server trouble decides nothing: the code does, else the client's category")
    func otherStatus() {
        for status in [200, 302, 400, 401, 403, 404, 428, 430, 499] {
            #expect(SurfacedError(status: status).category == nil)
            #expect(SurfacedError(status: status, reportedCategory: .userinfo).category == .userinfo)
            #expect(SurfacedError(status: status, oauthError: "invalid_client").category == .invalidClient)
        }
    }

    @Test("what no status or code tells is the client's category: TLS, a refused ID token, a crash, nobody signed in")
    func nothingDerivable() {
        for category in ErrorCategory.allCases {
            #expect(SurfacedError(reportedCategory: category).category == category)
        }
        #expect(SurfacedError().category == nil)
    }

    @Test(
        "the app server's refusal (leg 2) stays exchange_refused whatever its code, and is transient when it is down: the code tells what was refused, not who refused"
    )
    func appServerRefusal() {
        for code in ["invalid_grant", "invalid_client", "access_denied", "invalid_request"] {
            #expect(SurfacedError(oauthError: code, reportedCategory: .exchangeRefused).category == .exchangeRefused)
        }
        #expect(SurfacedError(status: 503, reportedCategory: .exchangeRefused).category == .transient)
        #expect(SurfacedError(status: 400, reportedCategory: .exchangeRefused).category == .exchangeRefused)
        // A client that reports the app server's refusal as leg 1's is judged as it reported it.
        #expect(
            SurfacedError(oauthError: "invalid_grant", reportedCategory: .authorizationRequired).category
                == .authorizationRequired
        )
    }

    @Test("a category that the status or the code contradicts is not used: the derived one wins")
    func derivedWins() {
        #expect(
            SurfacedError(oauthError: "invalid_grant", reportedCategory: .oauthError).category == .authorizationRequired
        )
        #expect(SurfacedError(oauthError: "invalid_request", reportedCategory: .transient).category == .oauthError)
        #expect(
            SurfacedError(status: 503, oauthError: "server_error", reportedCategory: .oauthError).category == .transient
        )
        #expect(SurfacedError(status: 429, reportedCategory: .userinfo).category == .transient)
    }

    // MARK: An adapter's ok: false answer

    static func failure(_ error: [String: JSONValue], op: String = "login") -> Result<ClientFailure, AdapterFault> {
        AdapterReply(id: 1, members: ["ok": .bool(false), "error": .object(error)]).failure(of: op)
    }

    @Test("an adapter that gives only what its library surfaced gets the category the harness derives")
    func adapterWithoutCategory() {
        #expect(
            Self.failure(["oauth_error": .string("invalid_grant"), "message": .string("gone"), "type": .string("E")])
                == .success(
                    ClientFailure(.authorizationRequired, oauthError: "invalid_grant", message: "gone", errorType: "E")
                )
        )
        #expect(
            Self.failure(["status": .integer(503), "message": .string("503 Server Error")], op: "request")
                == .success(ClientFailure(.transient, status: 503, message: "503 Server Error"))
        )
        #expect(
            Self.failure([
                "status": .integer(502), "oauth_error": .string("temporarily_unavailable"), "message": .string("down"),
            ])
                == .success(
                    ClientFailure(.transient, oauthError: "temporarily_unavailable", status: 502, message: "down")
                )
        )
    }

    @Test("an adapter's category that the status or code contradicts gives way to the derived one")
    func adapterCategoryContradicted() {
        #expect(
            Self.failure([
                "category": .string("oauth_error"), "oauth_error": .string("invalid_client"), "message": .string("no"),
            ])
                == .success(ClientFailure(.invalidClient, oauthError: "invalid_client", message: "no"))
        )
        #expect(
            Self.failure(["category": .string("userinfo"), "status": .integer(429), "message": .string("slow down")])
                == .success(ClientFailure(.transient, status: 429, message: "slow down"))
        )
        #expect(
            Self.failure(
                ["category": .string("protocol"), "status": .integer(400), "message": .string("400 Client Error")]
            ) == .success(ClientFailure(.protocolViolation, status: 400, message: "400 Client Error"))
        )
    }

    @Test("with nothing derivable the adapter's category is required: its absence is the adapter's fault")
    func missingCategory() {
        for error: [String: JSONValue] in [
            ["message": .string("it failed")],
            ["status": .integer(400), "message": .string("400 Client Error")],
            ["category": .null, "status": .null, "message": .string("it failed")],
        ] {
            guard case .failure(let fault) = Self.failure(error) else {
                Issue.record("an error with nothing to derive a category from and no category was read: \(error)")
                continue
            }
            #expect(fault.message.contains("has no category"))
        }
    }

    @Test("an unknown category or a status that is no HTTP status is the adapter's fault, derivable or not")
    func malformed() {
        for error: [String: JSONValue] in [
            ["category": .string("fatal"), "oauth_error": .string("invalid_grant"), "message": .string("x")],
            ["category": .string("protocol"), "status": .integer(42), "message": .string("x")],
            ["category": .string("protocol"), "status": .string("503"), "message": .string("x")],
        ] {
            if case .success(let failure) = Self.failure(error) {
                Issue.record("a malformed error was read as \(failure): \(error)")
            }
        }
    }
}
