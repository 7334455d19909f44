/// The error codes of a refused registration, RFC 7591 §3.2.2.
public enum RegistrationErrorCode: String, Sendable, Hashable, CaseIterable {
    case invalidRedirectURI = "invalid_redirect_uri"
    case invalidClientMetadata = "invalid_client_metadata"
    case invalidSoftwareStatement = "invalid_software_statement"
    case unapprovedSoftwareStatement = "unapproved_software_statement"
}
