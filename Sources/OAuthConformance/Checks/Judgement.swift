/// What judging one check found; the check adds its kind and statement to make a `CheckResult`.
struct Judgement: Sendable, Equatable {
    var passed: Bool
    var expected: String
    var observed: String
    /// Journal sequence numbers that show what was observed, marked in the timeline.
    var evidence: [Int] = []
}
