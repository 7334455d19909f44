/// Results that finish in any order, let out in the order their scenarios were given: each one
/// as soon as every scenario before it has finished. What makes a parallel run's console and
/// reports read the same as a sequential run's.
struct ScenarioOrder<Element> {
    private var finished: [Element?]
    /// How many have been let out: the results before this position.
    private(set) var released = 0

    init(count: Int) {
        finished = Array(repeating: nil, count: count)
    }

    /// Keeps the result of the scenario at `position` and returns the results now let out, in order.
    mutating func finish(_ result: Element, at position: Int) -> [Element] {
        finished[position] = result
        var ready: [Element] = []
        while released < finished.count, let next = finished[released] {
            ready.append(next)
            released += 1
        }
        return ready
    }

    /// Every result kept, in order, with any still missing left out.
    var all: [Element] { finished.compactMap { $0 } }

    /// The positions without a result yet.
    var missing: [Int] { finished.indices.filter { finished[$0] == nil } }
}
