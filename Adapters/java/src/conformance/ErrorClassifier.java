package conformance;

import com.google.api.client.auth.oauth2.TokenErrorResponse;
import com.google.api.client.auth.oauth2.TokenResponseException;
import com.google.api.client.http.HttpResponseException;
import com.google.gson.stream.MalformedJsonException;
import java.io.IOException;
import javax.net.ssl.SSLException;

/**
 * Turns what the library threw into the protocol's error categories, from the exception's class
 * and the attributes the library documents on it, never from a body the library did not parse.
 *
 * <ul>
 *   <li>{@link TokenResponseException} with {@code getDetails()}: the library parsed an RFC 6749
 *       §5.2 error response; its {@code getError()} is the {@code oauth_error}.
 *   <li>{@link HttpResponseException} (a TokenResponseException without details among them): the
 *       status the library surfaced; 5xx and 429 are transient, anything else a protocol error.
 *   <li>{@link SSLException} anywhere in the cause chain: the handshake failed ({@code tls}).
 *   <li>{@link MalformedJsonException} (an IOException): Gson, the library's JSON parser, could not
 *       read the answer as JSON; the provider answered what the protocol does not allow.
 *   <li>Any other {@link IOException}: the connection failed, was reset or timed out (transient).
 *   <li>A RuntimeException: the library crashed ({@code unexpected}); the library documents
 *       IOException (and its subclasses above) as the outcome of a failed request, nothing else.
 * </ul>
 */
final class ErrorClassifier {
    private ErrorClassifier() {}

    static ClientError classify(Throwable thrown) {
        if (thrown instanceof ClientError error) {
            return error;
        }
        String type = thrown.getClass().getName();
        String message = thrown.getMessage() != null ? thrown.getMessage() : thrown.toString();
        if (thrown instanceof TokenResponseException tokenError && tokenError.getDetails() != null) {
            TokenErrorResponse details = tokenError.getDetails();
            String code = details.getError();
            return new ClientError(categoryForCode(code), message, code, type);
        }
        if (thrown instanceof HttpResponseException httpError) {
            int status = httpError.getStatusCode();
            String category = status >= 500 || status == 429 ? "transient" : "protocol";
            return new ClientError(category, message, null, type);
        }
        if (causedBy(thrown, SSLException.class)) {
            return new ClientError("tls", message, null, type);
        }
        if (thrown instanceof MalformedJsonException) {
            return new ClientError("protocol", message, null, type);
        }
        if (thrown instanceof IOException) {
            return new ClientError("transient", message, null, type);
        }
        return new ClientError("unexpected", message, null, type);
    }

    /** The category of an RFC 6749 §5.2 error code (the same table as the Python adapters). */
    static String categoryForCode(String code) {
        if ("invalid_client".equals(code)) {
            return "invalid_client";
        }
        if ("invalid_grant".equals(code) || "access_denied".equals(code)) {
            return "authorization_required"; // the grant is dead or the user said no: sign in again
        }
        return "oauth_error";
    }

    private static boolean causedBy(Throwable thrown, Class<? extends Throwable> kind) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (kind.isInstance(t)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
