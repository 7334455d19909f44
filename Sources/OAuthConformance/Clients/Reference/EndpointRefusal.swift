/// How the reference client reads an error from an authorization server endpoint other than the
/// token endpoint (PAR, RFC 9126 §2.3; device authorization, RFC 8628 §3.2): RFC 6749 §5.2 errors
/// as at the token endpoint, and an outage as transient.
enum EndpointRefusal {
    static func failure(status: Int, error: String?, endpoint: String) -> ClientFailure {
        let category = SurfacedError(status: status, oauthError: error).category
        if category == .transient {
            return ClientFailure(.transient, status: status, message: "the \(endpoint) endpoint answered \(status)")
        }
        return ClientFailure(
            category ?? .oauthError,
            oauthError: error,
            status: status,
            message: "the \(endpoint) was refused: \(status)\(error.map { " \($0)" } ?? "")"
        )
    }
}
