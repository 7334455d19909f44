/// Many outcomes in one line: the twenty results of a `concurrently` step read
/// "20 × success (200)", not twenty repetitions.
enum Tally {
    /// Equal descriptions counted, in order of first appearance: "19 × success (200); 1 × error transient: …".
    static func text(_ descriptions: [String]) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for description in descriptions {
            if counts[description] == nil { order.append(description) }
            counts[description, default: 0] += 1
        }
        if order.count == 1, descriptions.count == 1 { return order[0] }
        return order.map { "\(counts[$0]!) × \($0)" }.joined(separator: "; ")
    }
}
