import DequeModule

/// Records kept oldest first within a count and a byte budget: what a client sends must not grow
/// the provider without bound, so adding a record past either limit forgets the oldest. The newest
/// record is always kept, whatever its size.
struct BoundedQueue<Element> {
    let capacity: Int
    let byteBudget: Int
    private(set) var elements: Deque<Element> = []
    private var sizes: Deque<Int> = []
    /// The bytes of the records kept, as `append` was told them.
    private(set) var bytes = 0

    init(capacity: Int, byteBudget: Int) {
        precondition(capacity > 0 && byteBudget > 0)
        self.capacity = capacity
        self.byteBudget = byteBudget
    }

    var count: Int { elements.count }

    /// Adds the record; returns how many of the oldest were forgotten to make room.
    @discardableResult
    mutating func append(_ element: Element, bytes size: Int) -> Int {
        elements.append(element)
        sizes.append(size)
        bytes += size
        var forgotten = 0
        while elements.count > 1, elements.count > capacity || bytes > byteBudget {
            removeOldest()
            forgotten += 1
        }
        return forgotten
    }

    /// Forgets the oldest records as long as `isStale` holds for them: those expired, when records
    /// expire in the order they came.
    mutating func removeOldest(while isStale: (Element) -> Bool) {
        while let oldest = elements.first, isStale(oldest) { removeOldest() }
    }

    func lastIndex(where matches: (Element) -> Bool) -> Int? {
        elements.lastIndex(where: matches)
    }

    /// Changes a record in place; its size stays as `append` was told it.
    mutating func modify(at index: Int, _ change: (inout Element) -> Void) {
        change(&elements[index])
    }

    @discardableResult
    mutating func remove(at index: Int) -> Element {
        bytes -= sizes.remove(at: index)
        return elements.remove(at: index)
    }

    private mutating func removeOldest() {
        elements.removeFirst()
        bytes -= sizes.removeFirst()
    }
}
