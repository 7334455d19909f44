/// How many are allowed, in `count:` and `client_errors:`: `exactly: 2`, `at_most: 3` or `at_least: 1`.
public enum CountBound: Sendable, Equatable, CustomStringConvertible {
    case exactly(Int)
    case atMost(Int)
    case atLeast(Int)

    public func admits(_ count: Int) -> Bool {
        switch self {
        case .exactly(let n): count == n
        case .atMost(let n): count <= n
        case .atLeast(let n): count >= n
        }
    }

    public var description: String {
        switch self {
        case .exactly(let n): "exactly \(n)"
        case .atMost(let n): "at most \(n)"
        case .atLeast(let n): "at least \(n)"
        }
    }
}
