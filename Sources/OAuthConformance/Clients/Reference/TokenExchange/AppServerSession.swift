import Foundation
import MockProvider

/// Leg 2 of a third-party sign-in (catalogue section D): the app's own session at the app's own
/// server, started by trading the provider's ID token there (RFC 8693 token exchange), kept alive
/// with the app's refresh token (TL-03), and started again with a fresh ID token when the app
/// server refuses that refresh (TL-04). Its tokens are for the app server's origin alone. HTTP is
/// closures, as for `OpenIDRelyingParty`: the reference client's transport carries every call.
actor AppServerSession {
    struct Answer: Sendable {
        var status: Int
        var body: String
        var serverDate: Date?
        /// RFC 6750 §3.1: a 401 a new token can cure.
        var invalidTokenChallenge: Bool
    }

    /// What leg 2 presents: the ID token, or (a defect) something else with its RFC 8693 type.
    struct SubjectToken: Sendable {
        var value: String
        var type: String
    }

    typealias PostForm = @Sendable (_ url: String, _ form: [(String, String)]) async -> Result<Answer, ClientFailure>
    typealias SendBearer =
        @Sendable (_ method: String, _ url: String, _ token: String) async -> Result<Answer, ClientFailure>
    /// A subject token the provider still vouches for: the signed-in ID token, renewed at the
    /// provider first when it has expired.
    typealias FreshSubjectToken = @Sendable () async -> Result<SubjectToken, ClientFailure>

    private let tokenEndpointURL: String
    private let clientID: String
    private let behaviour: TokenExchangeBehaviour
    private let interpreter: TokenResponseInterpreter
    private let refreshLeeway: Duration
    private let now: @Sendable () -> Date
    private let postForm: PostForm
    private let sendBearer: SendBearer
    private let freshSubjectToken: FreshSubjectToken
    private var tokens: TokenSet?

    init(
        tokenEndpointURL: String,
        clientID: String,
        behaviour: TokenExchangeBehaviour,
        interpreter: TokenResponseInterpreter,
        refreshLeeway: Duration,
        now: @escaping @Sendable () -> Date,
        postForm: @escaping PostForm,
        sendBearer: @escaping SendBearer,
        freshSubjectToken: @escaping FreshSubjectToken
    ) {
        self.tokenEndpointURL = tokenEndpointURL
        self.clientID = clientID
        self.behaviour = behaviour
        self.interpreter = interpreter
        self.refreshLeeway = refreshLeeway
        self.now = now
        self.postForm = postForm
        self.sendBearer = sendBearer
        self.freshSubjectToken = freshSubjectToken
    }

    /// Whether a URL is the app server's, whose calls carry the app's tokens and nothing else.
    static func isSameOrigin(_ url: String, as other: String) -> Bool {
        guard let a = URLComponents(string: url), let b = URLComponents(string: other) else { return false }
        return a.scheme == b.scheme && a.host == b.host && a.port == b.port
    }

    /// Starts (or starts again) the app's session with a subject token from leg 1.
    func exchange(_ subject: SubjectToken) async -> Result<Void, ClientFailure> {
        let form = [
            ("grant_type", GrantType.tokenExchange.rawValue), ("subject_token", subject.value),
            ("subject_token_type", subject.type), ("client_id", clientID),
        ]
        switch await tokenRequest(form) {
        case .success(let obtained):
            tokens = obtained
            return .success(())
        case .failure(let failure) where failure.category == .transient:
            return .failure(
                ClientFailure(.transient, message: "the app server (leg 2) could not answer: \(failure.message)")
            )
        case .failure(let failure):
            return .failure(
                ClientFailure(
                    .exchangeRefused,
                    oauthError: failure.oauthError,
                    message: "the app server refused the exchange (leg 2): \(failure.message)"
                )
            )
        }
    }

    /// A call to the app server's resource with the app's access token: renewed first when it is
    /// due, renewed once and replayed once on a 401 `invalid_token`.
    func request(method: String, url: String) async -> ClientOutcome {
        guard let current = tokens else {
            return .failure(
                ClientFailure(
                    .authorizationRequired,
                    message: "no session at the app server: exchange the sign-in first"
                )
            )
        }
        var token = current.accessToken
        if current.needsRefresh(at: now(), leeway: refreshLeeway) {
            switch await renew() {
            case .success(let renewed): token = renewed
            case .failure(let failure): return .failure(failure)
            }
        }
        var answer: Answer
        switch await sendBearer(method, url, token) {
        case .success(let first): answer = first
        case .failure(let failure): return .failure(failure)
        }
        if answer.status == 401, answer.invalidTokenChallenge {
            switch await renew() {
            case .success(let renewed): token = renewed
            case .failure(let failure): return .failure(failure)
            }
            switch await sendBearer(method, url, token) {
            case .success(let replayed): answer = replayed
            case .failure(let failure): return .failure(failure)
            }
            if answer.status == 401 {
                return .failure(
                    ClientFailure(
                        .authorizationRequired,
                        message: "the app server rejected the renewed access token too"
                    )
                )
            }
        }
        return .success(status: answer.status, body: answer.body)
    }

    /// TL-03, then TL-04: the app's refresh token first; when the app server refuses it
    /// (`invalid_grant`), a new exchange with a subject token the provider still vouches for.
    private func renew() async -> Result<String, ClientFailure> {
        if behaviour.refreshesAppTokens, let refreshToken = tokens?.refreshToken {
            let form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID)]
            switch await tokenRequest(form) {
            case .success(let refreshed):
                tokens = refreshed
                return .success(refreshed.accessToken)
            case .failure(let failure) where failure.oauthError == "invalid_grant":
                break
            case .failure(let failure):
                return .failure(failure)
            }
        }
        tokens = nil
        let subject: SubjectToken
        switch await freshSubjectToken() {
        case .success(let fresh): subject = fresh
        case .failure(let failure): return .failure(failure)
        }
        switch await exchange(subject) {
        case .success: return .success(tokens?.accessToken ?? "")
        case .failure(let failure): return .failure(failure)
        }
    }

    private func tokenRequest(_ form: [(String, String)]) async -> Result<TokenSet, ClientFailure> {
        switch await postForm(tokenEndpointURL, form) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let answer):
            return interpreter.interpret(
                status: answer.status,
                body: answer.body,
                receivedAt: now(),
                previous: tokens,
                serverDate: answer.serverDate
            )
        }
    }
}
