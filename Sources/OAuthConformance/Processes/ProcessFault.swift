/// Why a supervised process could not be started or written to, in words for a report.
struct ProcessFault: Error, Sendable, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}
