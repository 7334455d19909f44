package conformance;

/**
 * An error outcome the protocol reports ({@code ok: false}): a category from
 * docs/adapter-protocol.md, the library's own words, and the RFC 6749 §5.2 code only when the
 * library surfaced it (TokenErrorResponse.getError(), AuthorizationCodeResponseUrl.getError()).
 */
final class ClientError extends Exception {
    final String category;
    final String oauthError;
    final String type;

    ClientError(String category, String message, String oauthError, String type) {
        super(message);
        this.category = category;
        this.oauthError = oauthError;
        this.type = type;
    }

    static ClientError unsupported(String message) {
        return new ClientError("unsupported", message, null, null);
    }
}
