import MockProvider
import Yams

extension RetryLater: ScenarioRuleAction {
    static let key = "retry_later"

    /// `retry_later: { status: 429, after: 30s, as: http_date }`.
    static func decode(_ node: Node, reader: YAMLReader) -> RetryLater? {
        guard let retry = reader.mapping(node, "retry_later", allowedKeys: ["status", "after", "as", "body"]),
            let after = retry.required("after", hint: " (e.g. after: 30s)").flatMap({
                reader.duration($0, "retry_later.after")
            })
        else { return nil }
        return RetryLater(
            status: retry["status"].flatMap { reader.int($0, "retry_later.status", in: 400...599) } ?? 503,
            after: after,
            format: retry["as"].flatMap { reader.enumeration($0, "Retry-After format", as: RetryLater.Format.self) }
                ?? .seconds,
            body: retry["body"].flatMap { reader.string($0, "retry_later.body") } ?? ""
        )
    }

    var explanation: String {
        "refuses with HTTP \(status) and Retry-After \(DurationText.format(after)) (\(format.rawValue))"
    }
}
