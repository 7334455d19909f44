package conformance;

import com.google.api.client.auth.openidconnect.IdToken;
import com.google.api.client.auth.openidconnect.IdTokenResponse;
import com.google.api.client.auth.openidconnect.IdTokenVerifier;
import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpTransport;
import com.google.api.client.json.GenericJson;
import com.google.api.client.json.JsonFactory;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The application's OpenID Connect side, on google-oauth-client's openidconnect package: the
 * library parses ID tokens ({@link IdToken#parse}) and verifies them ({@link IdTokenVerifier}:
 * iss, aud, exp and iat, and an RS256 or ES256 signature with a key of the JWKS its certificates
 * location names). What it has no API for is the application's: discovery (fetched once with
 * google-http-client), the nonce (IdTokenVerifier takes none; the application compares
 * {@code getNonce()} with the one it sent, as the ID Token Validation steps the verifier's
 * documentation points to require), and the userinfo response's {@code sub} (OIDC Core §5.3.2).
 * One instance per application launch: the verifier, and the JWKS it caches, live as long.
 */
final class OpenIdConnect {
    /** The user the application holds as signed in: the accepted ID token's iss and sub. */
    record Identity(String issuer, String subject) {}

    private final Environment environment;
    private final VirtualClock clock;
    private final HttpTransport transport;
    private final JsonFactory json;
    private ProviderMetadata provider;
    private IdTokenVerifier verifier;
    private volatile Identity identity;

    OpenIdConnect(Environment environment, VirtualClock clock, HttpTransport transport, JsonFactory json) {
        this.environment = environment;
        this.clock = clock;
        this.transport = transport;
        this.json = json;
    }

    /**
     * The discovery document, fetched on first use and kept. Its issuer must be the one the
     * application is configured with (OIDC Discovery §4.3), else another provider could name the
     * issuer every ID token is checked against; the verifier is built from it.
     */
    synchronized ProviderMetadata discover() throws Exception {
        if (provider != null) {
            return provider;
        }
        var response = transport.createRequestFactory(Transports.TIMEOUTS)
                .buildGetRequest(new GenericUrl(environment.openidConfigurationUrl()))
                .setParser(json.createJsonObjectParser())
                .execute(); // a non-2xx answer throws HttpResponseException, reported with its status (ErrorClassifier)
        ProviderMetadata read;
        try {
            read = response.parseAs(ProviderMetadata.class);
        } catch (IOException | IllegalArgumentException unreadable) {
            throw new ClientError("protocol", "the discovery document is not a JSON object: " + unreadable.getMessage(),
                    null, unreadable.getClass().getName());
        }
        if (!Objects.equals(read.issuer, environment.issuer())) {
            throw new ClientError("protocol", "the discovery document names issuer " + read.issuer + ", not "
                    + environment.issuer() + " (OIDC Discovery §4.3)", null, null);
        }
        if (read.jwksUri == null) {
            // Without it, IdTokenVerifier would fetch Google's own keys (its default location).
            throw new ClientError("protocol", "the discovery document names no jwks_uri", null, null);
        }
        verifier = new IdTokenVerifier.Builder()
                .setIssuer(read.issuer)
                .setAudience(List.of(environment.clientId()))
                .setClock(clock) // exp and iat on the harness's time
                .setCertificatesLocation(read.jwksUri) // a JWKS URL; the keys are cached for an hour
                .setHttpTransportFactory(() -> transport) // the JWKS through the transport that trusts ca_file
                .build();
        provider = read;
        return read;
    }

    /**
     * The ID token of a sign-in's token response, validated before any of its tokens is kept: a
     * refusal throws ClientError {@code id_token}. Returns the identity it names.
     */
    Identity validate(IdTokenResponse response, String nonce) throws Exception {
        discover();
        if (response.getIdToken() == null) {
            throw refused("the token response carries no id_token (OIDC Core §3.1.3.3)", null);
        }
        IdToken idToken;
        try {
            idToken = IdToken.parse(json, response.getIdToken());
        } catch (IOException | IllegalArgumentException unreadable) {
            throw refused("IdToken.parse refused it: " + unreadable, unreadable.getClass().getName());
        }
        // An exception out of verify (a NullPointerException for a token without exp or iat) is
        // not a refusal the library documents: it goes on to ErrorClassifier as "unexpected".
        try (LoggedReason logged = new LoggedReason()) {
            if (!verifier.verify(idToken)) {
                String why = logged.reason != null ? logged.reason : failedPayloadCheck(idToken);
                throw refused("IdTokenVerifier.verify returned false: " + why, IdTokenVerifier.class.getName());
            }
        }
        // The nonce: the application's own check (the verifier takes no nonce).
        if (!Objects.equals(idToken.getPayload().getNonce(), nonce)) {
            throw refused("the ID token's nonce is not the one this sign-in sent (checked by the application)", null);
        }
        return new Identity(idToken.getPayload().getIssuer(), idToken.getPayload().getSubject());
    }

    /**
     * verify() returns false without a word when its payload checks fail; the IdToken methods it
     * calls (as documented) say which did.
     */
    private String failedPayloadCheck(IdToken idToken) {
        long now = clock.currentTimeMillis();
        long skew = verifier.getAcceptableTimeSkewSeconds();
        if (!idToken.verifyIssuer(verifier.getIssuers())) {
            return "IdToken.verifyIssuer: iss " + idToken.getPayload().getIssuer() + " is not " + verifier.getIssuer();
        }
        if (!idToken.verifyAudience(verifier.getAudience())) {
            return "IdToken.verifyAudience: aud " + idToken.getPayload().getAudienceAsList() + " is not only "
                    + verifier.getAudience();
        }
        if (!idToken.verifyExpirationTime(now, skew)) {
            return "IdToken.verifyExpirationTime: expired (exp " + idToken.getPayload().getExpirationTimeSeconds() + ")";
        }
        if (!idToken.verifyIssuedAtTime(now, skew)) {
            return "IdToken.verifyIssuedAtTime: issued in the future (iat " + idToken.getPayload().getIssuedAtTimeSeconds() + ")";
        }
        return "no reason given";
    }

    /**
     * The accepted token's user. IdTokenVerifier does not require sub: a token without one is
     * accepted, and names nobody the protocol's identity can report (it needs iss and sub), so the
     * application then holds no identity.
     */
    void signedIn(Identity accepted) {
        identity = accepted.issuer() != null && accepted.subject() != null ? accepted : null;
    }

    /** Nobody signed in with OpenID Connect: a session the application restored names no validated user. */
    void signedOut() {
        identity = null;
    }

    Identity identity() {
        return identity;
    }

    /** The userinfo endpoint, once someone is signed in. */
    String userinfoEndpoint() throws Exception {
        if (identity == null) {
            throw new ClientError("authorization_required", "nobody is signed in: sign in first", null, null);
        }
        String endpoint = discover().userinfoEndpoint;
        if (endpoint == null) {
            throw new ClientError("protocol", "the discovery document names no userinfo_endpoint", null, null);
        }
        return endpoint;
    }

    /**
     * A userinfo answer's claims, kept only when they are about the signed-in user (OIDC Core
     * §5.3.2): the library has no userinfo support, so this is the application's check.
     */
    void checkUserinfo(int status, String body) throws ClientError {
        if (status != 200) {
            throw new ClientError("userinfo", "the userinfo endpoint answered " + status + ", not the user's claims", null, null);
        }
        Object sub;
        try {
            sub = json.createJsonParser(body).parse(GenericJson.class).get("sub");
        } catch (IOException | IllegalArgumentException unreadable) {
            throw new ClientError("userinfo", "the userinfo answer is not a JSON object: " + unreadable.getMessage(),
                    null, unreadable.getClass().getName());
        }
        if (!identity.subject().equals(sub)) {
            throw new ClientError("userinfo", "the userinfo answer is about sub " + sub + ", not the signed-in "
                    + identity.subject() + " (OIDC Core §5.3.2)", null, null);
        }
    }

    private static ClientError refused(String message, String type) {
        return new ClientError("id_token", message, null, type);
    }

    /**
     * IdTokenVerifier.verify logs why it refused a signature (its VerificationException) and
     * returns only false: this handler reads that log record, for this thread, while verify runs.
     */
    private static final class LoggedReason extends Handler implements AutoCloseable {
        private final Logger logger = Logger.getLogger(IdTokenVerifier.class.getName());
        private final long thread = Thread.currentThread().getId();
        volatile String reason;

        LoggedReason() {
            logger.addHandler(this);
        }

        @Override
        public void publish(LogRecord record) {
            // verify's own SEVERE record; the key loader's WARNING before it carries only the cause.
            if (record.getLevel() == Level.SEVERE && record.getLongThreadID() == thread && record.getThrown() != null) {
                Throwable thrown = record.getThrown();
                Throwable root = thrown;
                while (root.getCause() != null && root.getCause() != root) {
                    root = root.getCause();
                }
                reason = thrown.getMessage() + (root == thrown ? "" : " (" + root.toString().lines().findFirst().orElse("") + ")");
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }
}
