/// What the stdout reader saw, in order.
enum ProcessOutput: Sendable, Equatable {
    case line(String)
    /// A line longer than the launch's `longestLine`; reading stopped there.
    case overlong(prefix: String)
    /// A line that is not UTF-8, which the protocol requires: a fault, never text with its bad
    /// bytes quietly replaced. `offset` is that of the first bad byte; `prefix` the line up to it.
    case notUTF8(offset: Int, prefix: String)
    case endOfFile

    /// One line as read: text when it is valid UTF-8.
    init(line bytes: [UInt8]) {
        if let text = String(validating: bytes, as: UTF8.self) {
            self = .line(text)
            return
        }
        var parser = Unicode.UTF8.ForwardParser()
        var input = bytes.makeIterator()
        var valid = 0
        while case .valid(let scalar) = parser.parseScalar(from: &input) { valid += scalar.count }
        self = .notUTF8(offset: valid, prefix: String(decoding: bytes[..<valid].suffix(200), as: UTF8.self))
    }
}
