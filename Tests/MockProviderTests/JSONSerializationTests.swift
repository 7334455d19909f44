import Foundation
import Testing

@testable import MockProvider

/// `JSONValue.serialized()` writes plain documents itself and leaves the rest to JSONEncoder;
/// either way the text must be the one JSONEncoder writes, so transcripts do not change.
struct JSONSerializationTests {
    static let documents: [JSONValue] = [
        .object([
            "access_token": .string("at-1"), "token_type": .string("Bearer"), "expires_in": .integer(3600),
            "refresh_token": .string("rt-1"),
        ]),
        .object([
            "Zebra": .null, "apple": .bool(true), "a10": .integer(-7), "a9": .bool(false), "a_b": .array([]),
            "ab": .object([:]),
        ]),
        .array([.string("https://example.com/a?b=c&d"), .string(" spaced ~ "), .integer(Int.min), .integer(Int.max)]),
        .object(["quote": .string("say \"hi\" \\ then"), "line": .string("a\nb\u{1}\t"), "café": .string("naïve ☕")]),
        .object(["nested": .object(["list": .array([.number(1.5), .number(3600), .string("x")])])]),
        .string("plain"),
    ]

    @Test("serialized() writes what JSONEncoder writes, sorted keys and unescaped slashes", arguments: documents)
    func serializedAsJSONEncoderWrites(_ document: JSONValue) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(document.serialized() == String(decoding: try encoder.encode(document), as: UTF8.self))
    }

    @Test("members in sorted order serialize as the object they make, escaping and all", arguments: documents)
    func sortedMembersAsTheObject(_ document: JSONValue) throws {
        guard case .object(let members) = document else { return }
        let sorted = members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        #expect(JSONValue.serializedObject(sortedMembers: sorted) == document.serialized())
    }
}
