import Synchronization

/// The device authorization grant (RFC 8628) as the provider plays it: how long a device code
/// lives, the polling interval it asks for, and what the user does on the other device.
public struct DeviceAuthorizationPolicy: Sendable, Equatable {
    /// What the user does with the code shown, counted in the client's polls or in virtual time.
    public enum User: Sendable, Equatable {
        /// Approves; the poll with this number (from 1) gets the tokens.
        case approvesAtPoll(Int)
        /// Approves once this much virtual time has passed since the device authorization.
        case approvesAfter(Duration)
        /// Denies; the poll with this number gets `access_denied`.
        case deniesAtPoll(Int)
        /// Never acts: the code expires.
        case never
    }

    /// `interval` in the device authorization response; `nil` leaves it out, so the client must
    /// use RFC 8628 §3.5's default of 5 seconds.
    public var interval: Duration?
    public var expiresIn: Duration
    public var user: User
    /// Whether the response offers `verification_uri_complete` (RFC 8628 §3.3.1).
    public var verificationURIComplete: Bool

    public init(
        interval: Duration? = .seconds(5),
        expiresIn: Duration = .seconds(600),
        user: User = .approvesAtPoll(3),
        verificationURIComplete: Bool = true
    ) {
        self.interval = interval
        self.expiresIn = expiresIn
        self.user = user
        self.verificationURIComplete = verificationURIComplete
    }

    /// RFC 8628 §3.5: the interval a client uses when the response gives none.
    public static let defaultInterval = Duration.seconds(5)
}

/// The device codes issued and what became of them. A poll earlier than the interval after the
/// previous one is answered `slow_down`, and the interval grows by 5 seconds (RFC 8628 §3.5).
/// Bounded: past `capacity` codes the oldest are forgotten, and so is a code that expired a
/// lifetime ago (until then, a poll with it is told `expired_token`); a code's record has a fixed
/// size, so the count bounds the bytes.
final class DeviceCodes: Sendable {
    static let defaultCapacity = 10_000
    /// What one code's record takes, for the byte budget its count implies.
    private static let recordBytes = 128

    enum PollAnswer {
        case pending
        case slowDown
        case denied
        case expired
        case approved(Approval)
        case unknown
    }

    /// The user's approval of a device code.
    struct Approval {
        var subject: String
        /// When the user authenticated and approved, on the virtual clock (an ID token's `auth_time`).
        var at: Duration
        /// Whether the device authorization asked for scope `openid`: the approval signs the user in.
        var signsIn: Bool
    }

    private struct Issued {
        var deviceCode: String
        var userCode: String
        var issuedAt: Duration
        var expiresAt: Duration
        var interval: Duration
        var lastPoll: Duration?
        var polls = 0
        var finished = false
        var signsIn: Bool
    }

    private let state: Mutex<(codes: BoundedQueue<Issued>, issued: Int)>

    init(capacity: Int = defaultCapacity) {
        state = Mutex((BoundedQueue(capacity: capacity, byteBudget: capacity * Self.recordBytes), 0))
    }

    /// A new device code and its user code.
    /// - Parameter signsIn: the request's scope held `openid`.
    func issue(
        at now: Duration,
        policy: DeviceAuthorizationPolicy,
        signsIn: Bool = false
    ) -> (deviceCode: String, userCode: String) {
        state.withLock { state in
            state.issued += 1
            let deviceCode = "device-code-\(state.issued)"
            let userCode = "WDJB-MJH\(state.issued)"
            state.codes.removeOldest { $0.expiresAt + ($0.expiresAt - $0.issuedAt) <= now }
            state.codes.append(
                Issued(
                    deviceCode: deviceCode,
                    userCode: userCode,
                    issuedAt: now,
                    expiresAt: now + policy.expiresIn,
                    interval: policy.interval ?? DeviceAuthorizationPolicy.defaultInterval,
                    signsIn: signsIn
                ),
                bytes: Self.recordBytes
            )
            return (deviceCode, userCode)
        }
    }

    /// Changes the live (unfinished) code's record; `nil` when there is no such code.
    private func withLiveCode<T: Sendable>(_ deviceCode: String, _ change: (inout Issued) -> T) -> T? {
        state.withLock { state in
            guard let index = state.codes.lastIndex(where: { $0.deviceCode == deviceCode && !$0.finished }) else {
                return nil
            }
            var result: T?
            state.codes.modify(at: index) { result = change(&$0) }
            return result
        }
    }

    /// A poll a rule answered instead: it still counts as one of the client's polls (so
    /// `approves_at_poll` counts every poll the client made), and a scripted `slow_down`
    /// lengthens the interval as the provider's own would.
    func noteScriptedPoll(_ deviceCode: String, at now: Duration, slowDown: Bool) {
        _ = withLiveCode(deviceCode) { code in
            code.lastPoll = now
            code.polls += 1
            if slowDown { code.interval += .seconds(5) }
        }
    }

    func poll(_ deviceCode: String, at now: Duration, policy: DeviceAuthorizationPolicy, subject: String) -> PollAnswer
    {
        withLiveCode(deviceCode) { code -> PollAnswer in
            guard now < code.expiresAt else { return .expired }
            let previous = code.lastPoll
            code.lastPoll = now
            code.polls += 1
            if let previous, now - previous < code.interval {
                code.interval += .seconds(5)
                return .slowDown
            }
            // When the user acted: at this poll, or the scripted delay after the code was issued.
            let actedAt: Duration?
            switch policy.user {
            case .approvesAtPoll(let number), .deniesAtPoll(let number): actedAt = code.polls >= number ? now : nil
            case .approvesAfter(let delay): actedAt = now - code.issuedAt >= delay ? code.issuedAt + delay : nil
            case .never: actedAt = nil
            }
            guard let actedAt else { return .pending }
            code.finished = true
            if case .deniesAtPoll = policy.user { return .denied }
            return .approved(Approval(subject: subject, at: actedAt, signsIn: code.signsIn))
        } ?? .unknown
    }
}

/// RFC 8628 §3.1–3.2: the device authorization endpoint. The client authenticates as at the token
/// endpoint; the answer carries the device code, the user code and where the user goes.
struct DeviceAuthorizationEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let codes: DeviceCodes
    let policy: DeviceAuthorizationPolicy

    func serve(_ request: ProviderRequest, issuer: String, at now: Duration) -> ProviderResponse {
        if let refusal = authenticator.refusal(for: request) { return refusal }
        let (deviceCode, userCode) = codes.issue(
            at: now,
            policy: policy,
            signsIn: OpenIDScope.includesOpenID(request.formField("scope"))
        )
        let verificationURI = issuer + "/device"
        var members: [(key: String, value: JSONValue)] = [
            ("device_code", .string(deviceCode)),
            ("expires_in", .integer(Int(policy.expiresIn.seconds.rounded()))),
        ]
        if let interval = policy.interval { members.append(("interval", .integer(Int(interval.seconds.rounded())))) }
        members.append(("user_code", .string(userCode)))
        members.append(("verification_uri", .string(verificationURI)))
        if policy.verificationURIComplete {
            members.append(("verification_uri_complete", .string(verificationURI + "?user_code=" + userCode)))
        }
        return .json(200, sortedMembers: members)
    }
}
