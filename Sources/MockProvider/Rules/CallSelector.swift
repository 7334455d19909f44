/// Which of the requests a rule's matcher takes (counted from 1) the rule answers.
public enum CallSelector: Sendable, Equatable {
    case every
    case nth(Int)
    case range(ClosedRange<Int>)
    /// The n-th and every later one.
    case from(Int)

    func selects(_ callNumber: Int) -> Bool {
        switch self {
        case .every: true
        case .nth(let n): callNumber == n
        case .range(let range): range.contains(callNumber)
        case .from(let n): callNumber >= n
        }
    }
}
