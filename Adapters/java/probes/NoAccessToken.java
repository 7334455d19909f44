package probes;

import com.google.api.client.auth.oauth2.ClientCredentialsTokenRequest;
import com.google.api.client.auth.oauth2.TokenResponse;
import com.google.api.client.auth.oauth2.TokenResponseException;
import com.google.api.client.http.GenericUrl;
import java.util.List;

/**
 * Cause: a Credential without an access token sends the call without Authorization.
 * Credential.intercept (Credential.java:195-211) refreshes when it has no access token, and when
 * that gives none either ("nothing we can do without an access token") returns without touching
 * the request, which goes out bare; the resource's 401 with a plain Bearer challenge is not one
 * handleResponse refreshes on (224-248). A token response without access_token is a success:
 * TokenRequest.execute parses any 2xx as a TokenResponse (TokenRequest.java: executeUnparsed,
 * parseAs) and setFromTokenResponse takes its null access token (Credential.java:512-521).
 */
final class NoAccessToken {
    private NoAccessToken() {}

    static final List<String> SECTION_FIVE_TWO = List.of("invalid_request", "invalid_client", "invalid_grant",
            "unauthorized_client", "unsupported_grant_type", "invalid_scope");

    static void register() {
        Probe.register("token-error-surfaced",
                "after a password grant refused with each RFC 6749 §5.2 code the Credential holds no access token, and intercept sends the next call without Authorization, its 401 coming back to the application; for invalid_client the 401 answer's body is lost too (getDetails() null, no code)",
                NoAccessToken::tokenErrorSurfaced);
        Probe.register("truncated-token-response",
                "a token response cut off in its JSON fails the sign-in, but the next call goes out without Authorization instead of failing",
                () -> failedSignIn("{\"access_token\":\"at-1\",\"t", null));
        Probe.register("error-body-with-200-login",
                "a 200 whose body is {\"error\":\"invalid_grant\"} is taken for a token response without an access token: the sign-in succeeds and the next call goes out without Authorization",
                () -> failedSignIn("{\"error\":\"invalid_grant\",\"error_description\":\"wrong username or password\"}", "succeeds"));
        Probe.register("missing-access-token-password",
                "a password grant's response without access_token is a successful sign-in; the next call refreshes with the refresh token it came with and goes on",
                NoAccessToken::missingAccessTokenPassword);
        Probe.register("missing-access-token-client-credentials",
                "a client_credentials response without access_token is a successful sign-in; the next call goes out without Authorization",
                NoAccessToken::missingAccessTokenClientCredentials);
        Probe.register("missing-access-token-refresh",
                "a refresh response without access_token is a successful refresh: the call goes out without Authorization and gets the 401",
                () -> emptyRefresh("{\"token_type\":\"Bearer\",\"expires_in\":3600}", 1));
        Probe.register("error-body-with-200-refresh",
                "a 200 error body is taken for a successful refresh without an access token: the call goes out without Authorization (401), and the next call refreshes again",
                () -> emptyRefresh("{\"error\":\"invalid_grant\"}", 2));
    }

    /** The last call reached the resource without Authorization and came back 401. */
    static void expectBareCall(Probe.Checks checks, Provider provider, App.Outcome outcome) {
        List<Provider.Request> calls = provider.seen("/resource", null);
        Provider.Request last = calls.isEmpty() ? null : calls.get(calls.size() - 1);
        checks.expect(last != null && last.authorization() == null, "the call went to the resource without Authorization");
        checks.expect(outcome.status() == 401, "and the application got its 401 (" + outcome.status() + ")");
    }

    private static List<String> tokenErrorSurfaced() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        for (String code : SECTION_FIVE_TWO) {
            Probe.say("-- the token endpoint refuses the password grant with " + code);
            Provider provider = new Provider("provider");
            provider.handle("/token", exchange -> Provider.oauthError(exchange, code));
            App app = new App(provider);
            app.signIn();
            checks.expect(app.credential.getAccessToken() == null, "the Credential holds no access token");
            if ("invalid_client".equals(code)) {
                checks.expect(app.signInError instanceof TokenResponseException e && e.getStatusCode() == 401
                        && e.getDetails() == null, "the 401 invalid_client answer reached the application without its body: getDetails() is null");
            } else {
                checks.expect(App.isTokenError(app.signInError, code), "the sign-in threw TokenResponseException with " + code);
            }
            expectBareCall(checks, provider, app.call());
        }
        return checks.done();
    }

    /** Every token request is answered 200 with body; the sign-in fails (or succeeds), and the next call goes out bare. */
    private static List<String> failedSignIn(String body, String signIn) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> exchange.json(200, body));
        Probe.say("-- the token endpoint answers 200 " + body);
        App app = new App(provider);
        TokenResponse response = app.signIn();
        if ("succeeds".equals(signIn)) {
            checks.expect(response != null && response.getAccessToken() == null, "the sign-in succeeded, with no access token");
        } else {
            checks.expect(response == null, "the sign-in failed");
        }
        expectBareCall(checks, provider, app.call());
        return checks.done();
    }

    private static List<String> missingAccessTokenPassword() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> exchange.json(200, "password".equals(exchange.form.get("grant_type"))
                ? "{\"token_type\":\"Bearer\",\"refresh_token\":\"rt-1\",\"expires_in\":3600}"
                : provider.bearer(null, 3600)));
        App app = new App(provider);
        TokenResponse response = app.signIn();
        checks.expect(response != null, "the sign-in succeeded without an access token");
        App.Outcome outcome = app.call();
        List<Provider.Request> refreshes = provider.seen("/token", "refresh_token");
        checks.expect(refreshes.size() == 1 && "rt-1".equals(refreshes.get(0).form().get("refresh_token")),
                "the next call refreshed with rt-1");
        checks.expect(outcome.status() == 200, "and went on (200)");
        return checks.done();
    }

    private static List<String> missingAccessTokenClientCredentials() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> exchange.json(200, "{\"token_type\":\"Bearer\",\"expires_in\":3600}"));
        App app = new App(provider);
        Probe.say("application: new ClientCredentialsTokenRequest(…).setClientAuthentication(BasicAuthentication).execute()");
        try {
            TokenResponse response = new ClientCredentialsTokenRequest(app.transport, App.JSON,
                    new GenericUrl(provider.url() + "/token")).setClientAuthentication(App.CLIENT)
                    .setRequestInitializer(App.TIMEOUTS).execute();
            Probe.say("application: execute() returned " + response);
            app.credential.setFromTokenResponse(response);
            checks.expect(true, "the sign-in succeeded without an access token");
        } catch (Exception e) {
            checks.expect(false, "the sign-in succeeded (it threw " + App.describe(e) + ")");
        }
        expectBareCall(checks, provider, app.call());
        return checks.done();
    }

    /** The sign-in works; once the token expired, each refresh is answered 200 with body (no access token). */
    private static List<String> emptyRefresh(String body, int calls) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> exchange.json(200, "password".equals(exchange.form.get("grant_type"))
                ? provider.bearer("rt-1", 3600) : body));
        App app = new App(provider);
        app.signIn();
        app.expire();
        Probe.say("-- each refresh is answered 200 " + body);
        for (int call = 1; call <= calls; call++) {
            int before = provider.seen("/token", "refresh_token").size();
            App.Outcome outcome = app.call();
            checks.expect(provider.seen("/token", "refresh_token").size() > before, "call " + call + " refreshed");
            expectBareCall(checks, provider, outcome);
        }
        return checks.done();
    }
}
