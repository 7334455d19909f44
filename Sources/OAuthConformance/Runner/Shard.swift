/// One of `count` parts of a suite, so CI can run the parts as parallel jobs (`--shard 2/4`).
/// The split is by scenario id: ids are sorted, and the part numbered `index` takes the ids at
/// positions `index - 1`, `index - 1 + count`, …. It depends on nothing but the ids, so every job
/// computes the same split, and the parts together are the whole suite with nothing twice.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `i/n`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The scenarios of this part, in the order given.
    public func select(_ scenarios: [Scenario]) -> [Scenario] {
        let ids = Set(
            scenarios.map(\.id).sorted().enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
        )
        return scenarios.filter { ids.contains($0.id) }
    }
}
