package conformance;

import com.google.api.client.auth.oauth2.Credential;
import com.google.api.client.auth.oauth2.CredentialRefreshListener;
import com.google.api.client.auth.oauth2.TokenErrorResponse;
import com.google.api.client.auth.oauth2.TokenResponse;
import java.util.logging.Logger;

/**
 * Logs each refresh the Credential makes on its own (in its interceptor or its 401 handler) to
 * stderr, which the harness shows beside the timeline: Credential swallows a refresh that failed
 * with a 5xx or an unreadable answer, and this is the only trace of it. Tokens are not logged.
 */
final class RefreshLog implements CredentialRefreshListener {
    private static final Logger LOG = Logger.getLogger(RefreshLog.class.getName());

    @Override
    public void onTokenResponse(Credential credential, TokenResponse response) {
        LOG.info("refresh succeeded: expires_in=" + response.getExpiresInSeconds()
                + ", new refresh token: " + (response.getRefreshToken() != null));
    }

    @Override
    public void onTokenErrorResponse(Credential credential, TokenErrorResponse error) {
        LOG.info("refresh failed: " + (error == null ? "no error details (not a 4xx JSON error response)"
                : "error=" + error.getError()) + "; access token now " + (credential.getAccessToken() == null ? "cleared" : "kept"));
    }
}
