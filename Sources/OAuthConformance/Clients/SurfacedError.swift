/// What a client surfaced about a failure, from which the harness derives its category: the HTTP
/// status and the RFC 6749 §5.2 code of the answer it failed on, when the client surfaced them,
/// and the category the client gave for what neither tells. This is the one place where a status
/// or a code becomes a category (docs/adapter-protocol/messages.md, "Error categories"): adapters report
/// what their library surfaced and keep no table of their own, so no two can disagree; the
/// reference client reads its own failures by it too.
public struct SurfacedError: Sendable, Equatable {
    /// The HTTP status of the answer the client failed on, when it surfaced one.
    public var status: Int?
    /// The RFC 6749 §5.2 `error` code, when the client surfaced it as a field of its own.
    public var oauthError: String?
    /// The category the client gave: what no status or code tells (a TLS failure, a refused ID
    /// token or state, a dropped connection, nobody signed in, a crash), and which server refused
    /// (`exchange_refused`: the app's own server, leg 2 of a third-party sign-in).
    public var reportedCategory: ErrorCategory?

    public init(status: Int? = nil, oauthError: String? = nil, reportedCategory: ErrorCategory? = nil) {
        self.status = status
        self.oauthError = oauthError
        self.reportedCategory = reportedCategory
    }

    /// The failure's category, in this order:
    /// 1. a 5xx or 429 status is `transient`, whatever code its body carried: the server is down or
    ///    busy, and a §5.2 error response is a 400 or a 401;
    /// 2. a code is what the one table says (`ErrorCategory(oauthError:)`), or `exchange_refused`
    ///    when the client said the app's own server refused: the code tells what was refused, not
    ///    who refused it, and an application must tell leg 2's refusal from leg 1's (TL-02);
    /// 3. else the reported category.
    ///
    /// A reported category that the status or the code contradicts is not used. `nil` when
    /// nothing decides: the client surfaced neither and gave no category.
    public var category: ErrorCategory? {
        if let status, Self.isTransient(status) { return .transient }
        if let oauthError {
            return reportedCategory == .exchangeRefused ? .exchangeRefused : ErrorCategory(oauthError: oauthError)
        }
        return reportedCategory
    }

    /// A server error or throttling: worth trying again later.
    public static func isTransient(_ status: Int) -> Bool {
        status >= 500 || status == 429
    }
}
