import Foundation

/// Refuse for now with a status such as 429 or 503 and a `Retry-After` computed from virtual time
/// (RFC 9110 §10.2.3: delay-seconds or an HTTP-date).
public struct RetryLater: ProviderMisbehaviour {
    public enum Format: String, Sendable, Equatable, CaseIterable {
        case seconds
        case httpDate = "http_date"
    }

    public var status: Int
    public var after: Duration
    public var format: Format
    public var body: String

    public init(status: Int = 503, after: Duration, format: Format = .seconds, body: String = "") {
        self.status = status
        self.after = after
        self.format = format
        self.body = body
    }

    public func answer(_ context: MisbehaviourContext) -> ProviderResponse { response(now: context.clock.now) }

    func response(now: Date) -> ProviderResponse {
        let value: String =
            switch format {
            case .seconds: String(Int(after.seconds.rounded(.up)))
            case .httpDate: Self.httpDate(now.addingTimeInterval(after.seconds))
            }
        return ProviderResponse(status: status, headers: [HeaderField("Retry-After", value)], body: body)
    }

    /// IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

extension RuleAction {
    public static func retryLater(_ refusal: RetryLater) -> RuleAction { RuleAction(refusal) }
}
