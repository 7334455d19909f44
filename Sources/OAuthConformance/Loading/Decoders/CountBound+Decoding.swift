extension CountBound {
    /// The keys of a bound, of which a mapping states exactly one.
    static let keys = ["exactly", "at_most", "at_least"]

    /// `exactly: 2`, `at_most: 3` or `at_least: 1` among the keys of `mapping`.
    static func decode(_ mapping: CheckedMapping, in source: CheckSource) -> CountBound? {
        guard let key = mapping.exactlyOne(of: keys),
            let limit = mapping[key].flatMap({ source.reader.int($0, key, in: 0...1_000_000) })
        else { return nil }
        return switch key {
        case "exactly": .exactly(limit)
        case "at_most": .atMost(limit)
        default: .atLeast(limit)
        }
    }
}
