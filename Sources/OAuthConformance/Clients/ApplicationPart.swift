/// A behaviour family a library leaves to the application (`application_part:` in a profile): it
/// never calls a resource, say, or offers a refresh call but never decides to refresh. The
/// adapter does there the minimum the library's documentation shows, and the public table marks
/// the family's cell as the application's part, so that no verdict blames the library for code
/// that is the adapter's.
public struct ApplicationPart: Sendable, Hashable, Codable {
    /// The family's id (`proactive-refresh`), as scenarios name it.
    public var family: String
    /// What the library leaves to the application, and what the adapter does as its docs show.
    public var reason: String

    public init(family: String, reason: String) {
        self.family = family
        self.reason = reason
    }
}
