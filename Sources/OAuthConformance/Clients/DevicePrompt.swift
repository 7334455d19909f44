/// What the application shows the user of a device authorization (RFC 8628 §3.3).
public struct DevicePrompt: Sendable, Equatable, CustomStringConvertible {
    public var userCode: String
    public var verificationURI: String
    /// `nil` when the provider offered none (or the application does not show it).
    public var verificationURIComplete: String?

    public init(userCode: String, verificationURI: String, verificationURIComplete: String? = nil) {
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
    }

    public var description: String {
        "user code \(userCode) at \(verificationURI)" + (verificationURIComplete.map { " (or \($0))" } ?? "")
    }
}
