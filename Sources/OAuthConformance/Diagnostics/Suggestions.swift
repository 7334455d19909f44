/// "Did you mean …?" for a misspelt key or value: the closest candidate within a small edit distance.
enum Suggestions {
    static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = max(2, word.count / 3)
        let lowercased = word.lowercased()
        let length = lowercased.unicodeScalars.count
        return
            candidates
            // Words whose lengths differ by more than the limit cannot be within it; skipping them
            // keeps a file of thousands of unknown keys quick.
            .map { (candidate: $0, lowercased: $0.lowercased()) }
            .filter { abs($0.lowercased.unicodeScalars.count - length) <= limit }
            .map { (candidate: $0.candidate, distance: editDistance(lowercased, $0.lowercased)) }
            .filter { $0.distance <= limit }
            .min { $0.distance < $1.distance }?
            .candidate
    }

    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance over Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Two rows, reused: the table is rebuilt for every candidate of every unknown word.
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
