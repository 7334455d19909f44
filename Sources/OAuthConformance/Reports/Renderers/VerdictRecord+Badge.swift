/// How the HTML matrix shows a verdict so that no two look alike without colour: a symbol beside
/// the label, a border of its own (in the page's style sheet), and the verdict in words for a
/// screen reader or a tooltip. A reader who cannot tell red from green, or prints the page in
/// black and white, still tells a failure from an expected failure from a skip.
extension VerdictRecord {
    /// `✗`: one symbol a verdict, each a different shape, all in the fonts every system has.
    public var symbol: String {
        switch self {
        case .passed: "✓"
        case .failed: "✗"
        case .skipped: "↷"
        case .error: "!"
        case .expectedFailure: "⊘"
        case .toleratedFailure: "△"
        case .inconclusive: "?"
        }
    }

    /// `expected failure`: the verdict as a sentence says it.
    public var words: String {
        switch self {
        case .expectedFailure: "expected failure"
        case .toleratedFailure: "tolerated failure"
        case .passed, .failed, .skipped, .error, .inconclusive: rawValue
        }
    }

    /// `<span class="symbol" aria-hidden="true">✗</span> FAIL`: what a cell shows. The symbol is
    /// hidden from screen readers, which read the cell's label in words instead.
    var badge: String {
        "<span class=\"symbol\" aria-hidden=\"true\">\(symbol)</span> \(label)"
    }
}
