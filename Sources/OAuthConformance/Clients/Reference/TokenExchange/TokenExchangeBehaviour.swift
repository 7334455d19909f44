/// The reference client's decisions about leg 2 of a third-party sign-in (catalogue section D),
/// each set to its conforming value; each defect of `DefectiveClient.catalogue` in this area
/// switches exactly one.
public struct TokenExchangeBehaviour: Sendable, Equatable {
    /// TL-01: only an ID token the client accepted is exchanged. Off, the last ID token any token
    /// response carried is sent to the app server, refused or not: leg 2 after a failed leg 1.
    public var exchangesAcceptedIDTokenOnly = true
    /// TL-02: a refusal by the app server is reported as leg 2's (`exchange_refused`) and the user
    /// stays signed in with the provider. Off, it is reported as a lost sign-in and the user is
    /// signed out, so the application cannot tell which leg failed.
    public var reportsLeg2Refusals = true
    /// TL-03: the app's expired access token is renewed with the app's refresh token. Off, every
    /// renewal goes back to leg 1 (a provider refresh and a new exchange).
    public var refreshesAppTokens = true
    /// TL-04: an ID token past its `exp` is renewed at the provider before it is exchanged again.
    /// Off, the expired one is sent.
    public var renewsExpiredIDToken = true
    /// TL-05: the subject token is the ID token, typed `urn:ietf:params:oauth:token-type:id_token`.
    /// Off, the provider's access token is sent instead, typed as one.
    public var sendsIDTokenAsSubject = true

    public init() {}

    public static let conforming = TokenExchangeBehaviour()
}

extension TokenExchangeBehaviour {
    /// The deliberate bugs of its knobs (`ClientBehaviour.tokenExchange`), each switching one knob from its conforming value, as a
    /// real library's bug would: `DefectiveClient.catalogue` holds them, and `conformance selftest`
    /// proves that some scenario fails each. A new knob gets its defect here, beside it.
    static let defects: [DefectiveClient] = [
        .defect("exchanges-refused-id-token", "trades at the app server the ID token it refused at sign-in") {
            $0.tokenExchange.exchangesAcceptedIDTokenOnly = false
        },
        .defect(
            "app-server-refusal-as-sign-in-failure",
            "reports the app server's refusal as a failed sign-in and signs the user out of the provider"
        ) {
            $0.tokenExchange.reportsLeg2Refusals = false
        },
        .defect(
            "app-session-renewed-by-exchange",
            "renews the app's tokens by trading the ID token again, never refreshing"
        ) {
            $0.tokenExchange.refreshesAppTokens = false
        },
        .defect("expired-id-token-exchanged", "trades the expired ID token again instead of getting a fresh one") {
            $0.tokenExchange.renewsExpiredIDToken = false
        },
        .defect(
            "access-token-exchanged",
            "trades the provider's access token at the app server instead of the ID token"
        ) {
            $0.tokenExchange.sendsIDTokenAsSubject = false
        },
    ]
}
