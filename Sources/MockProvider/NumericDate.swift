/// An instant as JSON carries it from outside: RFC 7519 §2's NumericDate, Unix seconds as any
/// JSON number, a fraction allowed. Only instants from 1970 to the end of the year 9999 are
/// read: a number outside (`1e300`, `2^63`, `-1e300`) names no time a token or a poll could
/// have been made at, and turning it into an `Int` or a `Duration` would trap.
public enum NumericDate {
    /// 9999-12-31T23:59:59Z.
    public static let latest = 253_402_300_799
    public static let range: ClosedRange<Double> = 0...Double(latest)
    /// What a refusal says an instant must be.
    public static let expected = "Unix seconds between 1970 and the year 9999"

    /// The instant in Unix seconds, fraction kept; `nil` for anything but a number in `range`.
    public static func seconds(_ value: JSONValue) -> Double? {
        let seconds: Double
        switch value {
        case .integer(let whole): seconds = Double(whole)
        case .number(let fractional): seconds = fractional
        default: return nil
        }
        // NaN is in no range; JSON cannot carry it, but a Double from elsewhere can.
        return range.contains(seconds) ? seconds : nil
    }

    /// The instant in whole Unix seconds (a fraction rounded down), to compare with a clock's.
    public static func wholeSeconds(_ value: JSONValue) -> Int? {
        seconds(value).map { Int($0.rounded(.down)) }
    }
}
