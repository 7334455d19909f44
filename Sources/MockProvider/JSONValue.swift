import Foundation

/// A JSON document as data, so scenarios can state any response body, including wrong ones
/// (`"expires_in": "3600"`, `"refresh_token": null`), and checks can read bodies back.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(member: String) -> JSONValue? {
        if case .object(let members) = self { return members[member] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// Compact JSON text with sorted keys, so bodies are stable in transcripts.
    public func serialized() -> String {
        // Bytes, not a String: appending to a String checks and re-measures it every time.
        var text: [UInt8] = []
        // Room for a token response, so appending does not reallocate along the way.
        text.reserveCapacity(160)
        if writePlainly(into: &text) { return String(decoding: text, as: UTF8.self) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON value.
        let data = (try? encoder.encode(self)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// `.object(members).serialized()` for members listed in sorted key order, without building
    /// and sorting a dictionary first: the token and resource answers, written on every request.
    static func serializedObject(sortedMembers members: [(key: String, value: JSONValue)]) -> String {
        assert(zip(members, members.dropFirst()).allSatisfy { $0.key < $1.key }, "members out of order")
        var text: [UInt8] = [UInt8(ascii: "{")]
        text.reserveCapacity(160)
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            guard needsNoEscaping(key) else { return dictionaryOf(members).serialized() }
            quote(key, into: &text)
            text.append(UInt8(ascii: ":"))
            guard value.writePlainly(into: &text) else { return dictionaryOf(members).serialized() }
        }
        text.append(UInt8(ascii: "}"))
        return String(decoding: text, as: UTF8.self)
    }

    private static func dictionaryOf(_ members: [(key: String, value: JSONValue)]) -> JSONValue {
        .object(Dictionary(members) { _, last in last })
    }

    /// Writes the text JSONEncoder would, without it, when that text is beyond doubt: strings
    /// and keys of printable ASCII that need no escaping (so keys sort as their bytes do), and
    /// no `.number` (how a Double prints is JSONEncoder's business). Token and resource
    /// responses are such documents, and JSONEncoder cost more than the rest of a token
    /// request. `false` (text incomplete): leave it to JSONEncoder.
    private func writePlainly(into text: inout [UInt8]) -> Bool {
        switch self {
        case .null: text.append(contentsOf: "null".utf8)
        case .bool(let value): text.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): text.append(contentsOf: String(value).utf8)
        case .number: return false
        case .string(let value):
            guard Self.needsNoEscaping(value) else { return false }
            Self.quote(value, into: &text)
        case .array(let elements):
            text.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                guard element.writePlainly(into: &text) else { return false }
            }
            text.append(UInt8(ascii: "]"))
        case .object(let members):
            guard members.keys.allSatisfy(Self.needsNoEscaping) else { return false }
            text.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                Self.quote(key, into: &text)
                text.append(UInt8(ascii: ":"))
                guard value.writePlainly(into: &text) else { return false }
            }
            text.append(UInt8(ascii: "}"))
        }
        return true
    }

    private static func quote(_ plain: String, into text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        text.append(contentsOf: plain.utf8)
        text.append(UInt8(ascii: "\""))
    }

    /// Printable ASCII other than `"` and `\`: written as is by any JSON encoder.
    private static func needsNoEscaping(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// Parses JSON text; `nil` when the text is not JSON.
    public static func parse(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
