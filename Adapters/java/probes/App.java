package probes;

import com.google.api.client.auth.oauth2.BearerToken;
import com.google.api.client.auth.oauth2.Credential;
import com.google.api.client.auth.oauth2.CredentialRefreshListener;
import com.google.api.client.auth.oauth2.TokenErrorResponse;
import com.google.api.client.auth.oauth2.PasswordTokenRequest;
import com.google.api.client.auth.oauth2.TokenResponse;
import com.google.api.client.auth.oauth2.TokenResponseException;
import com.google.api.client.http.BasicAuthentication;
import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpRequest;
import com.google.api.client.http.HttpRequestInitializer;
import com.google.api.client.http.HttpResponse;
import com.google.api.client.http.HttpResponseException;
import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.client.json.JsonFactory;
import com.google.api.client.json.gson.GsonFactory;

/**
 * The application of Credential's documentation: one Credential built with
 * Credential.Builder(BearerToken.authorizationHeaderAccessMethod()), the token server URL and
 * HTTP Basic client authentication, given the sign-in's TokenResponse (setFromTokenResponse),
 * and resource calls through transport.createRequestFactory(credential), so that its interceptor
 * and its 401 handler act.
 */
final class App {
    static final JsonFactory JSON = GsonFactory.getDefaultInstance();
    static final BasicAuthentication CLIENT = new BasicAuthentication(Provider.CLIENT_ID, Provider.CLIENT_SECRET);

    /** Bounds every request (google-http-client's defaults are 20 s each). */
    static final HttpRequestInitializer TIMEOUTS = request -> {
        request.setConnectTimeout(3_000);
        request.setReadTimeout(4_000);
    };

    /** What a call came to, as the application saw it. */
    record Outcome(int status, Exception error) {
        boolean failed() {
            return error != null;
        }
    }

    final Provider provider;
    final HttpTransport transport;
    final Credential credential;
    /** What the last sign-in threw, if it failed. */
    Exception signInError;
    /** What the Credential's refresh listener was last told: the response, and the access token by then. */
    volatile TokenResponse refreshedWith;
    volatile String accessTokenWhenTold;

    App(Provider provider) {
        this(provider, new NetHttpTransport());
    }

    App(Provider provider, HttpTransport transport) {
        this(provider, transport, provider.url() + "/token");
    }

    App(Provider provider, HttpTransport transport, String tokenServerUrl) {
        this.provider = provider;
        this.transport = transport;
        this.credential = new Credential.Builder(BearerToken.authorizationHeaderAccessMethod())
                .setTransport(transport)
                .setJsonFactory(JSON)
                .setTokenServerUrl(new GenericUrl(tokenServerUrl))
                .setClientAuthentication(CLIENT)
                .setRequestInitializer(TIMEOUTS)
                .addRefreshListener(new CredentialRefreshListener() {
                    @Override
                    public void onTokenResponse(Credential credential, TokenResponse response) {
                        refreshedWith = response;
                        accessTokenWhenTold = credential.getAccessToken();
                    }

                    @Override
                    public void onTokenErrorResponse(Credential credential, TokenErrorResponse response) {}
                })
                .build();
    }

    /** The password grant, its answer given to the Credential; null (and printed) when it fails. */
    TokenResponse signIn() {
        Probe.say("application: new PasswordTokenRequest(…, \"" + Provider.USERNAME + "\", \"" + Provider.PASSWORD
                + "\").setClientAuthentication(BasicAuthentication).execute()");
        try {
            TokenResponse response = new PasswordTokenRequest(transport, JSON, new GenericUrl(provider.url() + "/token"),
                    Provider.USERNAME, Provider.PASSWORD)
                    .setClientAuthentication(CLIENT)
                    .setRequestInitializer(TIMEOUTS)
                    .execute();
            Probe.say("application: execute() returned " + response);
            credential.setFromTokenResponse(response);
            Probe.say("application: credential.setFromTokenResponse(it): " + describe(credential));
            return response;
        } catch (Exception failed) {
            Probe.say("application: execute() threw " + describe(failed));
            signInError = failed;
            return null;
        }
    }

    /** The access token's lifetime has passed: the Credential says so, and the resource refuses it. */
    void expire() {
        provider.valid.remove(credential.getAccessToken());
        credential.setExpirationTimeMilliseconds(System.currentTimeMillis() - 60_000);
        Probe.say("application: an hour later the credential holds " + describe(credential));
    }

    /** A GET of the resource (or url) through the Credential. */
    Outcome call() {
        return call(provider.url() + "/resource");
    }

    Outcome call(String url) {
        try {
            HttpRequest request = transport.createRequestFactory(r -> {
                credential.initialize(r);
                TIMEOUTS.initialize(r);
            }).buildGetRequest(new GenericUrl(url));
            HttpResponse response = request.execute();
            int status = response.getStatusCode();
            response.disconnect();
            Probe.say("application: GET " + url + " returned " + status);
            return new Outcome(status, null);
        } catch (Exception failed) {
            Probe.say("application: GET " + url + " threw " + describe(failed));
            return new Outcome(failed instanceof HttpResponseException h ? h.getStatusCode() : -1, failed);
        }
    }

    static String describe(Credential credential) {
        Long expiresIn = credential.getExpiresInSeconds();
        return "access_token=" + credential.getAccessToken() + " refresh_token=" + quoted(credential.getRefreshToken())
                + " expires in " + (expiresIn == null ? "(no expiry)" : expiresIn + " s");
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }

    /** An exception as the application gets it: its class, message and, for a token error, details. */
    static String describe(Throwable failed) {
        String text = failed.getClass().getName() + ": " + firstLine(failed.getMessage());
        if (failed instanceof TokenResponseException token) {
            text += " (status " + token.getStatusCode() + ", getDetails() "
                    + (token.getDetails() == null ? "null" : "error=" + token.getDetails().getError()) + ")";
        }
        return text;
    }

    static String firstLine(String message) {
        if (message == null) {
            return "null";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline) + " …";
    }

    static boolean isTokenError(Exception error, String code) {
        return error instanceof TokenResponseException token && token.getDetails() != null
                && code.equals(token.getDetails().getError());
    }
}
