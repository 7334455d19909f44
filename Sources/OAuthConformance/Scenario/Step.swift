import MockProvider

/// One thing the scenario asks of the client or the clock.
public struct Step: Sendable, Equatable {
    public var action: StepAction
    /// An outcome this step must have, beyond what `expect` states for the whole run. For
    /// `concurrently`, every one of the concurrent operations must end this way.
    public var expectedOutcome: ExpectedOutcome?
    /// `user_at_the_browser`: whether someone authorizes what the client asks the user for inside
    /// the step's call (`InCallAuthorization`); `nil`: the default, `hasUserAtTheBrowser`.
    public var userAtTheBrowser: Bool?

    public init(_ action: StepAction, expecting expectedOutcome: ExpectedOutcome? = nil) {
        self.action = action
        self.expectedOutcome = expectedOutcome
    }

    /// By default the user is there for a call that should succeed, and away for one that should
    /// fail: a failure the scenario expects of the application's call is the client needing the
    /// user, which an interactive client shows by asking for them (a step-up scenario, whose
    /// failure comes after the user authorized, says `user_at_the_browser: true`).
    var hasUserAtTheBrowser: Bool { userAtTheBrowser ?? !(expectedOutcome?.isFailure ?? false) }
}

public enum StepAction: Sendable, Equatable {
    /// The client logs in or calls the resource.
    case client(ClientOperation)
    /// The client starts the same operation `times` times at once.
    case concurrently(times: Int, ClientOperation)
    /// Move virtual time forward.
    case advance(Duration)
    /// Move virtual time to an instant computed from issued tokens and the client's profile.
    case advanceTo(TimeExpression)
    /// Let real time pass, at most `StepAction.longestWait`; the virtual clock stays put.
    case wait(Duration)
    /// The provider revokes tokens it issued, as when the user withdraws consent elsewhere.
    case revoke(RevocationTarget)
    /// The MCP server moves to this authorization server: its Protected Resource Metadata names it
    /// from now on, and the server takes only its tokens (`authorization_server: second`).
    case moveMCPServer(to: AuthorizationServerID)

    /// A `wait` longer than this is refused: scenarios must stay fast enough for CI.
    public static let longestWait = Duration.seconds(10)
    /// The most operations one `concurrently` step may start.
    public static let mostConcurrent = 200

    /// Obtain tokens with this grant.
    public static func login(_ grant: GrantType) -> StepAction { .client(.login(grant)) }

    /// Call the protected resource through the client.
    public static func request(method: String, path: String) -> StepAction {
        .client(.request(method: method, path: path))
    }

    /// The step as a scenario file writes it.
    public var text: String {
        switch self {
        case .client(let operation): operation.text
        case .concurrently(let times, let operation): "\(times) × \(operation.text) concurrently"
        case .advance(let amount): "advance \(DurationText.format(amount))"
        case .advanceTo(let instant): "advance to \(instant)"
        case .wait(let amount): "wait \(DurationText.format(amount))"
        case .revoke(let target): "provider revokes \(target.phrase)"
        case .moveMCPServer(let server): "the MCP server moves to the \(server.rawValue) authorization server"
        }
    }

    /// Whether the step signs in the client's own way (`sign_in: any`).
    public var signsInTheClientsWay: Bool { self == .client(.signInAsTheClientDoes) }

    /// What a client must be able to do for the step to be carried out.
    public var requiredCapabilities: [Capability] {
        switch self {
        case .client(let operation): operation.requiredCapability.map { [$0] } ?? []
        case .concurrently(_, let operation): [.concurrency] + (operation.requiredCapability.map { [$0] } ?? [])
        case .advance, .advanceTo: [.virtualClock]
        case .wait, .revoke, .moveMCPServer: []
        }
    }
}

extension Array where Element == Step {
    /// The numbers (from 1, as the file lists steps) of the steps that sign in the client's own way.
    var numbersSigningInTheClientsWay: [Int] {
        indices.filter { self[$0].action.signsInTheClientsWay }.map { $0 + 1 }
    }
}

/// Which tokens a `revoke` step revokes at the provider.
public enum RevocationTarget: String, Sendable, CaseIterable {
    /// The latest access token issued.
    case accessToken = "access_token"
    /// The latest refresh token issued, which revokes its family (RFC 7009 §2.1).
    case refreshToken = "refresh_token"
    /// Every token issued so far.
    case all

    public var phrase: String {
        switch self {
        case .accessToken: "the latest access token"
        case .refreshToken: "the latest refresh token"
        case .all: "every token issued so far"
        }
    }
}

public enum ExpectedOutcome: Sendable, Equatable, CustomStringConvertible {
    case succeeds
    /// Success or a refusal, both conforming: where the spec lets the client either accept or
    /// refuse (a token without `kid` among several keys), what it must not do is crash.
    case succeedsOrRefuses
    /// Fails with this category and, when given, this RFC 6749 §5.2 code. Without a category, any
    /// category that is a refusal (`ErrorCategory.isRefusal`): a crash or an unsupported
    /// operation is not one.
    case fails(category: ErrorCategory?, oauthError: String?)

    /// Whether the step must end in an error.
    public var isFailure: Bool {
        if case .fails = self { return true }
        return false
    }

    /// "success", or e.g. "an error of category oauth_error with error code invalid_scope".
    public var description: String {
        switch self {
        case .succeeds:
            "success"
        case .succeedsOrRefuses:
            "success or a refusal (anything but an error of category unexpected or unsupported)"
        case .fails(let category, let oauthError):
            (category.map { "an error of category \($0.rawValue)" }
                ?? "a refusal (an error of any category but unexpected or unsupported)")
                + (oauthError.map { " with error code \($0)" } ?? "")
        }
    }
}
