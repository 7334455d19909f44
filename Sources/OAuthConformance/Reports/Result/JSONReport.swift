import Foundation

/// `ConformanceResult` as JSON and back: snake_case keys, sorted, ISO 8601 dates, so a file
/// diffs cleanly and reads the same from any language.
public enum JSONReport {
    public static func render(_ result: ConformanceResult) -> String {
        encode(result, pretty: true) + "\n"
    }

    /// A value of the result (the whole, a scenario's record) as the file spells it: on one line
    /// unless `pretty`.
    static func encode(_ value: some Encodable, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
        // Encoding these plain value types cannot fail; a failure would be a bug in the model.
        guard let data = try? encoder.encode(value) else { preconditionFailure("\(type(of: value)) did not encode") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The decoder for what `encode` wrote.
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Reads a result file, refusing one this harness cannot read rather than guessing.
    public static func read(_ data: Data, from file: String) throws(ResultFileProblem) -> ConformanceResult {
        let decoder = Self.decoder
        struct FormatOnly: Decodable { var format: Int }
        guard let format = try? decoder.decode(FormatOnly.self, from: data).format else {
            throw ResultFileProblem(
                file: file,
                message:
                    "not a conformance result (a JSON object with \"format\": \(ConformanceResult.currentFormat) is expected)"
            )
        }
        guard format == ConformanceResult.currentFormat else {
            throw ResultFileProblem(
                file: file,
                message:
                    "result format \(format) is not supported; this harness reads format \(ConformanceResult.currentFormat)"
            )
        }
        let result: ConformanceResult
        do {
            result = try decoder.decode(ConformanceResult.self, from: data)
        } catch {
            throw ResultFileProblem(file: file, message: "not a valid format \(format) result: \(Self.describe(error))")
        }
        if let impossible = Self.impossibleTime(in: result) {
            throw ResultFileProblem(file: file, message: "not a valid format \(format) result: \(impossible)")
        }
        return result
    }

    /// The longest a run or a scenario can have taken, in milliseconds: a hundred years. Reports
    /// add the times up and turn them into dates; a time beyond it is no run's, and would overflow.
    static let longestMilliseconds = 100 * 365 * 86_400 * 1000

    /// Which time of the result no run could have taken, if one is.
    private static func impossibleTime(in result: ConformanceResult) -> String? {
        let possible = 0...longestMilliseconds
        let problem = "is not a number of milliseconds from 0 to \(longestMilliseconds)"
        guard possible.contains(result.milliseconds) else { return ".milliseconds \(problem)" }
        let index = result.scenarios.firstIndex { !possible.contains($0.milliseconds) }
        return index.map { ".scenarios[\($0)].milliseconds \(problem)" }
    }

    public static func read(file: String) throws(ResultFileProblem) -> ConformanceResult {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ResultFileProblem(file: file, message: "cannot read the file")
        }
        return try read(data, from: file)
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context): return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// `.client.refresh_window`, `.scenarios[2].id`: the keys as the file spells them.
    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty
            ? "the document" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\(snakeCase($0.stringValue))" }.joined()
    }

    private static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { text, character in
            text += character.isUppercase ? "_" + character.lowercased() : String(character)
        }
    }
}

/// A result file that cannot be used, and why.
public struct ResultFileProblem: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): error: \(message)" }
}
