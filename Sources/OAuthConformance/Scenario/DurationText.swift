import Foundation

/// Durations as people write them in scenario files: `250ms`, `120s`, `5m`, `1h30m`, `1d`.
public enum DurationText {
    static let units: [(suffix: String, seconds: Double)] = [
        ("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400),
    ]

    /// Parses a duration; the error says what a valid one looks like.
    public static func parse(_ text: String) -> Result<Duration, DurationSyntaxError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .failure(.init("a duration is empty")) }
        if Double(trimmed) != nil {
            return .failure(.init("'\(trimmed)' has no unit; write it as \(trimmed)s (units: ms, s, m, h, d)"))
        }
        var remainder = Substring(trimmed)
        var total = 0.0
        while !remainder.isEmpty {
            let number = remainder.prefix { $0.isNumber || $0 == "." }
            remainder = remainder.dropFirst(number.count)
            let unitText = remainder.prefix { $0.isLetter }
            remainder = remainder.dropFirst(unitText.count)
            guard let value = Double(number), let unit = units.first(where: { $0.suffix == unitText }) else {
                return .failure(.init("'\(trimmed)' is not a duration; write e.g. 250ms, 120s, 5m, 1h30m"))
            }
            total += value * unit.seconds
        }
        guard total <= 10 * 365 * 86_400 else {
            return .failure(.init("'\(trimmed)' is longer than ten years"))
        }
        return .success(.milliseconds(Int64((total * 1000).rounded())))
    }

    /// The shortest exact spelling: `90s` → "1m30s", `0.25s` → "250ms", to the nearest
    /// millisecond (half of one away from zero). Any duration, Int.max seconds too: counted in
    /// whole attoseconds, which neither a Double nor an Int64 of milliseconds holds exactly.
    public static func format(_ duration: Duration) -> String {
        let attosecondsPerMillisecond: Int128 = 1_000_000_000_000_000
        let (whole, rest) = duration.attoseconds.quotientAndRemainder(dividingBy: attosecondsPerMillisecond)
        var milliseconds = whole.magnitude + (rest.magnitude * 2 >= attosecondsPerMillisecond.magnitude ? 1 : 0)
        if milliseconds == 0 { return "0s" }
        let sign = duration < .zero ? "-" : ""
        var parts: [String] = []
        for (suffix, unitMilliseconds) in [("h", UInt128(3_600_000)), ("m", 60_000), ("s", 1000), ("ms", 1)]
        where milliseconds >= unitMilliseconds {
            parts.append("\(milliseconds / unitMilliseconds)\(suffix)")
            milliseconds %= unitMilliseconds
        }
        return sign + parts.joined()
    }
}

public struct DurationSyntaxError: Error, Sendable, Equatable {
    public var message: String
    init(_ message: String) { self.message = message }
}
