package conformance;

/**
 * An error outcome the protocol reports ({@code ok: false}): the library's own words, the RFC 6749
 * §5.2 code only when the library surfaced it (TokenErrorResponse.getError(),
 * AuthorizationCodeResponseUrl.getError()) and the HTTP status only when it surfaced one
 * (HttpResponseException.getStatusCode()). The harness derives the category from the status and
 * the code; {@code category} (docs/adapter-protocol.md) is for what neither tells, null when
 * they do.
 */
final class ClientError extends Exception {
    final String category;
    final String oauthError;
    final String type;
    final Integer status;

    ClientError(String category, String message, String oauthError, String type) {
        this(category, message, oauthError, type, null);
    }

    ClientError(String category, String message, String oauthError, String type, Integer status) {
        super(message);
        this.category = category;
        this.oauthError = oauthError;
        this.type = type;
        this.status = status;
    }

    static ClientError unsupported(String message) {
        return new ClientError("unsupported", message, null, null);
    }
}
