/// What an HTTP/1.1 header field may hold on the wire (RFC 9110 §5.1, §5.5). Scripted headers
/// may be wrong in every way a client should survive, but not in a way no message can carry.
enum HeaderSyntax {
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func isSendableValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0 }
    }
}
