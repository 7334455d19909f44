import MockProvider
import Testing

@testable import OAuthConformance

/// A scenario's operation is carried out by the calls of its plan; what the operation needs is
/// what those calls need, stated once on `ClientCall`.
@Suite("Scenario operations as client calls")
struct ClientOperationPlanTests {
    static let operations: [ClientOperation] = [
        .login(.password), .request(method: "GET", path: "/resource"), .authorize, .restart, .signIn, .userinfo,
        .exchange, .deviceSignIn, .nativeSignIn, .restoreSession,
    ]

    /// Every call a plan makes; a completion with a redirect URL standing for the browser's.
    static func calls(_ plan: OperationPlan) -> [ClientCall] {
        switch plan {
        case .call(let call): [call]
        case .throughBrowser(let start, let complete): [start, complete("http://127.0.0.1/callback?code=c")]
        case .devicePolling(let start, let poll): [start, poll]
        case .throughLoopback(let begin, let finish): [begin, finish]
        case .restoredSession(let restore):
            [
                restore(
                    SavedSession(
                        accessToken: "at-1",
                        tokenType: "Bearer",
                        refreshToken: nil,
                        expiresAt: nil,
                        scope: nil
                    )
                )
            ]
        }
    }

    @Test("each operation needs the capability it always has, and every call of its plan needs that one")
    func capabilities() {
        let expected: [Capability?] = [
            nil, nil, .authorizationCode, .restart, .openID, .openID, .idTokenExchange, .deviceGrant,
            .authorizationCode,
            nil,
        ]
        for (operation, capability) in zip(Self.operations, expected) {
            #expect(operation.requiredCapability == capability, "\(operation.text)")
            let plan = operation.plan(resourceURL: { "http://127.0.0.1:1" + $0 }, signIn: .password)
            for call in Self.calls(plan) {
                #expect(call.requiredCapability == capability, "\(operation.text): \(call)")
            }
        }
    }

    @Test("a request goes where the plan is told its path lives; only login, request and restart travel in a batch")
    func requestsAndBatches() {
        let plan = ClientOperation.request(method: "POST", path: "/app/resource").plan(
            resourceURL: { "https://x" + $0 },
            signIn: .password
        )
        #expect(Self.calls(plan) == [.request(method: "POST", url: "https://x/app/resource")])
        let batchable = Self.operations.filter { operation in
            guard case .call(let call) = operation.plan(resourceURL: { $0 }, signIn: .password) else { return false }
            return call.isBatchable
        }
        #expect(batchable.map(\.text) == ["login password", "request GET /resource", "restart"])
    }

    @Test(
        "a sign-in that is the client's is carried out by the method chosen for it, and needs no capability of its own"
    )
    func signInAsTheClientDoes() {
        let operation = ClientOperation.signInAsTheClientDoes
        #expect(operation.requiredCapability == nil)
        for method in SignInMethod.allCases {
            let plan = operation.plan(resourceURL: { $0 }, signIn: method)
            let direct = method.operation.plan(resourceURL: { $0 }, signIn: method)
            #expect(Self.calls(plan) == Self.calls(direct), "\(method.rawValue)")
            #expect(plan.requiredCapability == method.impliedCapability, "\(method.rawValue)")
        }
    }
}
