import NIOCore

/// How long a client may take over what it is sending, and what that is: nothing (it is
/// between requests, or waiting for an answer), a request's head, or a request's body.
///
/// `HTTPExchangeHandler` keeps it from what NIO's request decoder hands over. The decoder yields
/// nothing for a head until the head is whole, so a read that brings bytes but no part of a
/// request while none is under way is where a head begins; the head part ends it. The clock is
/// read once per read, as NIO's `IdleStateHandler` reads it, and nothing is armed per request:
/// one check per connection runs at the earliest deadline and looks again (`next`).
///
/// A head that begins in the same read as the end of the request before it is not seen until
/// its next byte arrives; if none ever does, the idle bound closes the connection instead.
struct ReadDeadlines {
    enum Phase: Equatable {
        case betweenRequests
        /// The head has begun, at `since`; further bytes do not move it.
        case head(since: NIODeadline)
        case body
    }

    /// Which bound a passed deadline belongs to: `head` and `body` get 408, `idle` a plain close.
    enum Bound {
        case idle, head, body
    }

    private let idle: TimeAmount
    private let head: TimeAmount
    private let body: TimeAmount
    private(set) var phase = Phase.betweenRequests
    private var lastRead: NIODeadline

    init(idle: Duration, request: RequestTimeouts, now: NIODeadline = .now()) {
        self.idle = TimeAmount(idle)
        self.head = TimeAmount(request.head)
        self.body = TimeAmount(request.body)
        self.lastRead = now
    }

    /// A read is done; `broughtParts`: the decoder made at least one request part of it.
    mutating func readCompleted(at now: NIODeadline, broughtParts: Bool) {
        lastRead = now
        if !broughtParts, phase == .betweenRequests {
            phase = .head(since: now)
        }
    }

    mutating func headCompleted() {
        phase = .body
    }

    mutating func requestCompleted() {
        phase = .betweenRequests
    }

    /// Reading resumes after an answer the connection waited for: the client was held up by the
    /// provider, not slow, so its bounds start over.
    mutating func readingResumed(at now: NIODeadline) {
        lastRead = now
        if case .head = phase {
            phase = .head(since: now)
        }
    }

    /// The deadline that passes first. While an answer is on its way the client owes nothing,
    /// and the connection reads nothing, so only the idle bound applies.
    func next(answering: Bool) -> (deadline: NIODeadline, bound: Bound) {
        switch (answering, phase) {
        case (true, _), (false, .betweenRequests):
            return (lastRead + idle, .idle)
        case (false, .head(let since)):
            return (since + head, .head)
        case (false, .body):
            return (lastRead + body, .body)
        }
    }
}
