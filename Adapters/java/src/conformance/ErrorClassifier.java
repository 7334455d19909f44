package conformance;

import com.google.api.client.auth.oauth2.TokenErrorResponse;
import com.google.api.client.auth.oauth2.TokenResponseException;
import com.google.api.client.http.HttpResponseException;
import com.google.gson.stream.MalformedJsonException;
import java.io.IOException;
import javax.net.ssl.SSLException;

/**
 * Turns what the library threw into the protocol's error, from the exception's class and the
 * attributes the library documents on it, never from a body the library did not parse. The
 * harness derives the category from a surfaced status and code (a 5xx or 429 is transient, a code
 * goes by its one table); a category is given only for what they do not tell.
 *
 * <ul>
 *   <li>{@link TokenResponseException} with {@code getDetails()}: the library parsed an RFC 6749
 *       §5.2 error response; its {@code getError()} is the {@code oauth_error}, its
 *       {@code getStatusCode()} the {@code status}.
 *   <li>{@link HttpResponseException} (a TokenResponseException without details among them): the
 *       status the library surfaced; unless it is a 5xx or 429, a protocol error.
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
            return new ClientError(code == null ? "oauth_error" : null, message, code, type, tokenError.getStatusCode());
        }
        if (thrown instanceof HttpResponseException httpError) {
            return new ClientError("protocol", message, null, type, httpError.getStatusCode());
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
