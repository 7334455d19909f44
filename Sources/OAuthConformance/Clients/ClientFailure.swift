/// An error the client surfaced to the application.
public struct ClientFailure: Error, Sendable, Equatable {
    public var category: ErrorCategory
    /// The RFC 6749 §5.2 `error` code, when the provider sent one.
    public var oauthError: String?
    /// The HTTP status of the answer the client failed on, when it surfaced one.
    public var status: Int?
    public var message: String
    /// The client library's own name for the error (an exception class, say), for the report.
    public var errorType: String?

    public init(
        _ category: ErrorCategory,
        oauthError: String? = nil,
        status: Int? = nil,
        message: String,
        errorType: String? = nil
    ) {
        self.category = category
        self.oauthError = oauthError
        self.status = status
        self.message = message
        self.errorType = errorType
    }
}
