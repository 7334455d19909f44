/// What a client makes of an access token whose response carried no `expires_in` (RFC 6749 §5.1
/// makes it optional).
public enum MissingExpiresInPolicy: Sendable, Equatable {
    /// The token is used until the resource rejects it.
    case neverExpires
    /// The client assumes this lifetime.
    case assumedLifetime(Duration)
}
