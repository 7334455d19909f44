package conformance;

import com.google.api.client.auth.oauth2.AuthorizationCodeFlow;
import com.google.api.client.auth.oauth2.AuthorizationCodeRequestUrl;
import com.google.api.client.auth.oauth2.AuthorizationCodeResponseUrl;
import com.google.api.client.auth.oauth2.BearerToken;
import com.google.api.client.auth.oauth2.ClientCredentialsTokenRequest;
import com.google.api.client.auth.oauth2.Credential;
import com.google.api.client.auth.oauth2.PasswordTokenRequest;
import com.google.api.client.auth.oauth2.StoredCredential;
import com.google.api.client.auth.oauth2.TokenResponse;
import com.google.api.client.auth.openidconnect.IdTokenResponse;
import com.google.api.client.http.BasicAuthentication;
import com.google.api.client.http.ByteArrayContent;
import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpContent;
import com.google.api.client.http.HttpExecuteInterceptor;
import com.google.api.client.http.HttpRequest;
import com.google.api.client.http.HttpResponse;
import com.google.api.client.http.HttpTransport;
import com.google.api.client.json.JsonFactory;
import com.google.api.client.json.gson.GsonFactory;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * One application using google-oauth-client for one scenario: the library calls, nothing the
 * library does not do itself. One {@link Credential} (thread-safe, shared by concurrent calls)
 * holds the tokens; it refreshes inside its own interceptor when fewer than 60 s remain and in
 * its own unsuccessful-response handler after a 401.
 */
final class GoogleOAuthClient {
    private static final Logger LOG = Logger.getLogger(GoogleOAuthClient.class.getName());
    private static final JsonFactory JSON = GsonFactory.getDefaultInstance();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A resource call's outcome as the application saw it. */
    record Response(int status, String body) {}

    private final Environment environment;
    private final VirtualClock clock;
    private final HttpExecuteInterceptor clientAuthentication;
    private HttpTransport transport;
    private CredentialStore store;
    private volatile Credential credential;

    /** The code flow under way: built by authorizationUrl() or signInUrl(), its PKCE verifier inside. */
    private AuthorizationCodeFlow flow;

    /** The nonce of the sign-in under way (signInUrl), or null. */
    private String nonce;

    /** Discovery, ID token validation and the signed-in user; made again at each launch. */
    private OpenIdConnect openId;

    GoogleOAuthClient(Environment environment, VirtualClock clock) throws Exception {
        this.environment = environment;
        this.clock = clock;
        // HTTP Basic, as Credential's own sample authenticates the client.
        this.clientAuthentication = new BasicAuthentication(environment.clientId(), environment.clientSecret());
        start();
    }

    /** What an application does at launch: transport, store, and the credential from the store. */
    private void start() throws Exception {
        transport = Transports.create(environment.caFile());
        store = new CredentialStore(environment.storageDir());
        Credential fresh = newCredential();
        StoredCredential saved = store.load();
        if (saved != null) { // as AuthorizationCodeFlow.loadCredential rebuilds it
            fresh.setAccessToken(saved.getAccessToken());
            fresh.setRefreshToken(saved.getRefreshToken());
            fresh.setExpirationTimeMilliseconds(saved.getExpirationTimeMilliseconds());
        }
        credential = fresh;
        openId = new OpenIdConnect(environment, clock, transport, JSON);
    }

    private Credential newCredential() {
        return new Credential.Builder(BearerToken.authorizationHeaderAccessMethod())
                .setTransport(transport)
                .setJsonFactory(JSON)
                .setTokenServerUrl(new GenericUrl(environment.tokenEndpoint()))
                .setClientAuthentication(clientAuthentication)
                .setRequestInitializer(Transports.TIMEOUTS)
                .setClock(clock)
                .addRefreshListener(store.refreshListener())
                .addRefreshListener(new RefreshLog())
                .build();
    }

    void login(String grant) throws Exception {
        switch (grant) {
            case "password" -> signedIn(new PasswordTokenRequest(transport, JSON, tokenUrl(),
                            environment.username(), environment.password())
                    .setClientAuthentication(clientAuthentication)
                    .setRequestInitializer(Transports.TIMEOUTS)
                    .execute());
            case "client_credentials" -> signedIn(new ClientCredentialsTokenRequest(transport, JSON, tokenUrl())
                    .setClientAuthentication(clientAuthentication)
                    .setRequestInitializer(Transports.TIMEOUTS)
                    .execute());
            case "refresh_token" -> forceRefresh();
            default -> throw ClientError.unsupported("login " + grant + " is not a grant of google-oauth-client");
        }
    }

    /** An application's "refresh now": Credential.refreshToken(). */
    private void forceRefresh() throws Exception {
        Credential current = credential;
        if (current.refreshToken()) {
            return;
        }
        // refreshToken() throws for a 4xx; it answers false in the two cases its documentation
        // gives: there is no refresh token, or the token server failed otherwise (5xx), which it
        // logs and swallows. The application can tell them apart only by getRefreshToken().
        if (current.getRefreshToken() == null) {
            throw new ClientError("authorization_required",
                    "Credential.refreshToken() returned false: it holds no refresh token", null,
                    Credential.class.getName());
        }
        throw new ClientError("transient",
                "Credential.refreshToken() returned false: the token server did not issue a token", null,
                Credential.class.getName());
    }

    /** A sign-in's token response into the shared Credential, then into the store. */
    private void signedIn(TokenResponse response) throws Exception {
        Credential current = credential;
        current.setFromTokenResponse(response);
        store.save(current);
    }

    /**
     * The tokens sign-in: a session the application saved earlier becomes the Credential, without
     * a request, the way the library restores one itself: AuthorizationCodeFlow.loadCredential
     * builds a new Credential and calls setAccessToken, setRefreshToken and
     * setExpirationTimeMilliseconds with what its DataStore holds (as start() does with the
     * store). From then on intercept() refreshes it with that refresh token once 60 s or less
     * remain, on the clock setClock gave it. The Credential has no scope or token type: the scope is
     * dropped, and only a Bearer session can be taken, since the access method is
     * BearerToken.authorizationHeaderAccessMethod() and the library has no DPoP proof to add.
     */
    void restoreTokens(String accessToken, String tokenType, String refreshToken, Double expiresAt) throws Exception {
        if (!"bearer".equalsIgnoreCase(tokenType)) {
            throw ClientError.unsupported("a " + tokenType + " session cannot be restored: the Credential sends "
                    + "Authorization: Bearer (BearerToken.authorizationHeaderAccessMethod) and the library has no DPoP proof");
        }
        Credential fresh = newCredential();
        fresh.setAccessToken(accessToken);
        fresh.setRefreshToken(refreshToken);
        // Unix seconds on the clock of now, which the VirtualClock the Credential reads is set to.
        fresh.setExpirationTimeMilliseconds(expiresAt == null ? null : Math.round(expiresAt * 1000.0));
        credential = fresh;
        store.save(fresh); // kept for a restart, as after a sign-in
        openId.signedOut();
    }

    String authorizationUrl() {
        nonce = null;
        return newAuthorizationRequest(List.of()).build();
    }

    /**
     * OpenID Connect sign-in: discovery first (once), then the code flow's request with scope
     * openid and a fresh nonce, which the library has no member for: it goes in as a parameter.
     */
    String signInUrl() throws Exception {
        openId.discover();
        nonce = random();
        return newAuthorizationRequest(List.of("openid")).set("nonce", nonce).build();
    }

    private AuthorizationCodeRequestUrl newAuthorizationRequest(List<String> scopes) {
        flow = new AuthorizationCodeFlow.Builder(BearerToken.authorizationHeaderAccessMethod(), transport, JSON,
                        tokenUrl(), clientAuthentication, environment.clientId(), environment.authorizationEndpoint())
                .enablePKCE() // S256 and a new verifier for this flow object
                .setScopes(scopes)
                .setClock(clock)
                .setRequestInitializer(Transports.TIMEOUTS)
                .build();
        // The library has no state of its own: the application makes one and puts it in the URL.
        return flow.newAuthorizationUrl().setRedirectUri(environment.redirectUri()).setState(random());
    }

    private static String random() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * The redirect back: parsed by AuthorizationCodeResponseUrl; its getError() is read as its
     * documentation's sample does. The library never compares getState() with the state sent, and
     * has no iss (RFC 9207) member: nothing here checks either, since that would be the adapter's
     * check, not the library's.
     */
    void completeAuthorization(String redirectUrl) throws Exception {
        if (flow == null) {
            throw new ClientError("protocol", "no authorization under way", null, null);
        }
        signedIn(flow.newTokenRequest(authorizationCode(redirectUrl)).setRedirectUri(environment.redirectUri()).execute());
    }

    /**
     * Sign-in's second half: the code redeemed as IdTokenResponse's documentation shows
     * (IdTokenResponse.execute, i.e. executeUnparsed().parseAs(IdTokenResponse.class)), and its ID
     * token validated before the Credential or the store sees any token of the response.
     */
    void completeSignIn(String redirectUrl) throws Exception {
        String sent = nonce;
        if (flow == null || sent == null) {
            throw new ClientError("protocol", "no sign-in under way", null, null);
        }
        nonce = null; // one redemption per authentication request
        IdTokenResponse response = IdTokenResponse.execute(
                flow.newTokenRequest(authorizationCode(redirectUrl)).setRedirectUri(environment.redirectUri()));
        OpenIdConnect.Identity user = openId.validate(response, sent);
        signedIn(response);
        openId.signedIn(user);
    }

    /** The code of the redirect back, or the error it carries as the application reads it. */
    private String authorizationCode(String redirectUrl) throws ClientError {
        AuthorizationCodeResponseUrl response;
        try {
            response = new AuthorizationCodeResponseUrl(redirectUrl);
        } catch (IllegalArgumentException refused) {
            // The constructor's documented precondition: exactly one of code and error.
            throw new ClientError("protocol", refused.getMessage(), null, refused.getClass().getName());
        }
        if (response.getError() != null) {
            String description = response.getErrorDescription();
            // The code decides the category (the harness's table).
            throw new ClientError(null,
                    response.getError() + (description != null ? ": " + description : ""),
                    response.getError(), AuthorizationCodeResponseUrl.class.getName());
        }
        return response.getCode();
    }

    /**
     * A resource call through an HttpRequestFactory with the Credential as initializer, so that its
     * interceptor adds (and refreshes) the token and its unsuccessful-response handler acts on a
     * 401. Every status comes back as a response (setThrowExceptionOnExecuteError(false)).
     */
    Response request(String method, String url, Map<String, String> headers, String body) throws Exception {
        String contentType = null;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            if (header.getKey().equalsIgnoreCase("Content-Type")) {
                contentType = header.getValue();
            }
        }
        HttpContent content = body == null ? null
                : new ByteArrayContent(contentType, body.getBytes(StandardCharsets.UTF_8));
        HttpRequest request = transport.createRequestFactory(Transports.withCredential(credential))
                .buildRequest(method, new GenericUrl(url), content);
        for (Map.Entry<String, String> header : headers.entrySet()) {
            if (!header.getKey().equalsIgnoreCase("Content-Type")) {
                request.getHeaders().set(header.getKey(), header.getValue());
            }
        }
        request.setThrowExceptionOnExecuteError(false);
        HttpResponse response = request.execute();
        try {
            return new Response(response.getStatusCode(), response.parseAsString());
        } finally {
            response.disconnect();
        }
    }

    /**
     * The signed-in user's claims: a GET of the discovered userinfo endpoint through the
     * Credential (Bearer token, refreshed as for any call), kept only when about that user.
     */
    Response userinfo() throws Exception {
        String endpoint = openId.userinfoEndpoint();
        HttpRequest request = transport.createRequestFactory(Transports.withCredential(credential))
                .buildGetRequest(new GenericUrl(endpoint));
        request.setThrowExceptionOnExecuteError(false);
        HttpResponse response = request.execute();
        try {
            Response answer = new Response(response.getStatusCode(), response.parseAsString());
            openId.checkUserinfo(answer.status(), answer.body());
            return answer;
        } finally {
            response.disconnect();
        }
    }

    /** The iss and sub of the ID token accepted last, or null. */
    OpenIdConnect.Identity identity() {
        return openId.identity();
    }

    /** A relaunch: drop every object, build them again from the store on storage_dir. */
    void restart() throws Exception {
        LOG.info("restart: rebuilding the transport, the store and the Credential");
        transport.shutdown();
        flow = null;
        nonce = null;
        start();
    }

    /** What the Credential holds now, or null when it holds no access token. */
    Credential tokens() {
        Credential current = credential;
        return current.getAccessToken() == null ? null : current;
    }

    void end() throws Exception {
        transport.shutdown();
    }

    private GenericUrl tokenUrl() {
        return new GenericUrl(environment.tokenEndpoint());
    }
}
