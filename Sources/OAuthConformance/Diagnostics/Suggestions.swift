/// "Did you mean …?" for a misspelt key or value: the closest candidate within a small edit distance.
enum Suggestions {
    static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = max(2, word.count / 3)
        return candidates
            .map { (candidate: $0, distance: editDistance(word.lowercased(), $0.lowercased())) }
            .filter { $0.distance <= limit }
            .min { $0.distance < $1.distance }?
            .candidate
    }

    static func didYouMean(_ word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance over Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
