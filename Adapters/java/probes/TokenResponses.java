package probes;

import java.util.List;
import java.util.function.Function;

/**
 * Cause: what google-oauth-client reads of a token response. TokenResponse
 * (TokenResponse.java) has access_token, token_type, expires_in as a Long and refresh_token,
 * parsed by google-http-client's JsonParser, which throws IllegalArgumentException for an
 * expires_in that is a JSON string or a fraction. Credential never reads token_type: its access
 * method writes "Bearer " + the token (BearerToken.java, AuthorizationHeaderAccessMethod).
 * setFromTokenResponse keeps the old refresh token only when the new one is Java null
 * (Credential.java:512-521), and a JSON null or "" is neither. intercept refreshes whenever
 * getExpiresInSeconds() is 60 or less (Credential.java:198-201).
 *
 * <p>Each odd answer is probed at the sign-in and, "-on-refresh", on a refresh response: there
 * the sign-in is ordinary (an hour, rt-1), its lifetime passes, and the refresh intercept sends
 * (executeRefreshToken, Credential.java:539-548) gets the odd answer. refreshToken() catches only
 * TokenResponseException (Credential.java:466-498), so the JSON parser's
 * IllegalArgumentException leaves it, and intercept, with the expired token still set.
 */
final class TokenResponses {
    private TokenResponses() {}

    static void register() {
        Probe.register("token-type-sent-as-bearer",
                "token_type is never read: a token of type mac, n_a or dpop is sent to the resource as a Bearer token",
                () -> tokenTypeIgnored(false));
        Probe.register("token-type-sent-as-bearer-on-refresh",
                "token_type is never read: a refreshed token of type mac, n_a or dpop is sent to the resource as a Bearer token",
                () -> tokenTypeIgnored(true));
        Probe.register("refresh-token-null-replaces",
                "\"refresh_token\": null in a refresh response replaces the refresh token the Credential had: the next refresh is sent without one (invalid_request)",
                () -> replacedRefreshToken("null"));
        Probe.register("refresh-token-empty-replaces",
                "\"refresh_token\": \"\" in a refresh response replaces the refresh token the Credential had: the next refresh sends refresh_token= (invalid_grant)",
                () -> replacedRefreshToken("\"\""));
        Probe.register("expires-in-20",
                "intercept refreshes whenever 60 s or fewer remain, so a 20-second token is refreshed before every request",
                () -> refreshBeforeEveryCall(20, false));
        Probe.register("expires-in-0",
                "an expires_in of 0 leaves 60 s or fewer: intercept refreshes before every request (a refresh for each of four calls)",
                () -> refreshBeforeEveryCall(0, false));
        Probe.register("expires-in-negative",
                "a negative expires_in (-60) leaves 60 s or fewer: intercept refreshes before every request (a refresh for each of four calls)",
                () -> refreshBeforeEveryCall(-60, false));
        Probe.register("expires-in-0-on-refresh",
                "a refresh answered with expires_in 0 leaves 60 s or fewer: intercept refreshes again before every request (a refresh for each of three calls)",
                () -> refreshBeforeEveryCall(0, true));
        Probe.register("expires-in-negative-on-refresh",
                "a refresh answered with a negative expires_in (-60) leaves 60 s or fewer: intercept refreshes again before every request (a refresh for each of three calls)",
                () -> refreshBeforeEveryCall(-60, true));
        Probe.register("expires-in-string",
                "expires_in as the string \"3600\" makes the JSON parser throw IllegalArgumentException (\"key expires_in\"): the sign-in fails and every later call goes out without Authorization",
                () -> unreadableExpiresIn("\"3600\"", false));
        Probe.register("expires-in-soon",
                "an unreadable expires_in (\"soon\") makes the JSON parser throw IllegalArgumentException (\"key expires_in\"): the sign-in fails and every later call goes out without Authorization",
                () -> unreadableExpiresIn("\"soon\"", false));
        Probe.register("expires-in-fraction",
                "a fractional expires_in (7199.5) makes the JSON parser throw IllegalArgumentException (\"key expires_in\", a Long field): the sign-in fails and every later call goes out without Authorization",
                () -> unreadableExpiresIn("7199.5", false));
        Probe.register("expires-in-string-on-refresh",
                "a refresh answered with expires_in as the string \"3600\" makes the JSON parser throw IllegalArgumentException (\"key expires_in\"), which leaves refreshToken() and intercept: the call fails before reaching the resource, the expired token stays, and every next call refreshes again and fails alike",
                () -> unreadableExpiresIn("\"3600\"", true));
        Probe.register("expires-in-soon-on-refresh",
                "a refresh answered with an unreadable expires_in (\"soon\") makes the JSON parser throw IllegalArgumentException (\"key expires_in\"), which leaves refreshToken() and intercept: the call fails before reaching the resource, the expired token stays, and every next call refreshes again and fails alike",
                () -> unreadableExpiresIn("\"soon\"", true));
        Probe.register("expires-in-fraction-on-refresh",
                "a refresh answered with a fractional expires_in (7199.5) makes the JSON parser throw IllegalArgumentException (\"key expires_in\", a Long field), which leaves refreshToken() and intercept: the call fails before reaching the resource, the expired token stays, and every next call refreshes again and fails alike",
                () -> unreadableExpiresIn("7199.5", true));
    }

    /**
     * The token endpoint answers with odd(access token) as its JSON body: every request, or with
     * onRefresh the refreshes only, the sign-in (the password grant) getting an ordinary
     * hour-long Bearer token with rt-1.
     */
    private static void answerOddly(Provider provider, boolean onRefresh, Function<String, String> odd) {
        provider.handle("/token", exchange -> {
            if (onRefresh && "password".equals(exchange.form.get("grant_type"))) {
                exchange.json(200, provider.bearer("rt-1", 3600));
            } else {
                exchange.json(200, odd.apply(provider.nextAccessToken()));
            }
        });
    }

    /** The sign-in; with onRefresh, also the passing of its token's lifetime, so that the next call refreshes. */
    private static App signedIn(Provider provider, boolean onRefresh) {
        App app = new App(provider);
        app.signIn();
        if (onRefresh) {
            app.expire();
        }
        return app;
    }

    private static List<String> tokenTypeIgnored(boolean onRefresh) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        String token = onRefresh ? "at-2" : "at-1";
        for (String type : List.of("mac", "n_a", "dpop")) {
            Probe.say("-- the " + (onRefresh ? "refresh" : "token") + " response says token_type \"" + type + "\"");
            Provider provider = new Provider("provider");
            answerOddly(provider, onRefresh, accessToken -> "{\"access_token\":\"" + accessToken + "\",\"token_type\":\""
                    + type + "\",\"expires_in\":3600,\"refresh_token\":\"rt-1\"}");
            App app = signedIn(provider, onRefresh);
            checks.expect(app.signInError == null, "the sign-in accepted its token");
            App.Outcome outcome = app.call();
            checks.expect(!outcome.failed(), "the call went ahead, nothing refused");
            List<Provider.Request> calls = provider.seen("/resource", null);
            checks.expect(calls.size() == 1 && ("Bearer " + token).equals(calls.get(0).authorization()),
                    "the resource got Authorization: Bearer " + token);
        }
        return checks.done();
    }

    private static List<String> replacedRefreshToken(String refreshTokenJson) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> {
            String grant = exchange.form.get("grant_type");
            if ("password".equals(grant)) {
                exchange.json(200, provider.bearer("rt-1", 3600));
            } else if (!exchange.form.containsKey("refresh_token")) {
                Provider.oauthError(exchange, "invalid_request");
            } else if (!"rt-1".equals(exchange.form.get("refresh_token"))) {
                Provider.oauthError(exchange, "invalid_grant");
            } else {
                exchange.json(200, "{\"access_token\":\"" + provider.nextAccessToken()
                        + "\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":" + refreshTokenJson + "}");
            }
        });
        App app = new App(provider);
        app.signIn();
        app.expire();
        app.call();
        Probe.say("application: after the refresh the credential holds " + App.describe(app.credential));
        app.expire();
        app.call();
        List<Provider.Request> refreshes = provider.seen("/token", "refresh_token");
        checks.expect(refreshes.size() >= 2, "a second refresh was sent (" + refreshes.size() + " refreshes)");
        if (refreshes.size() >= 2) {
            var second = refreshes.get(1).form();
            if ("null".equals(refreshTokenJson)) {
                checks.expect(!second.containsKey("refresh_token"), "the second refresh carried no refresh_token (" + second + ")");
            } else {
                checks.expect("".equals(second.get("refresh_token")), "the second refresh carried refresh_token= (" + second + ")");
            }
            checks.expect(refreshes.get(1).status() == 400, "and was refused");
        }
        return checks.done();
    }

    private static List<String> refreshBeforeEveryCall(long expiresIn, boolean onRefresh) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        answerOddly(provider, onRefresh, accessToken -> "{\"access_token\":\"" + accessToken
                + "\",\"token_type\":\"Bearer\",\"expires_in\":" + expiresIn + ",\"refresh_token\":\"rt-1\"}");
        App app = signedIn(provider, onRefresh);
        int calls = onRefresh ? 3 : expiresIn == 20 ? 2 : 4;
        for (int call = 1; call <= calls; call++) {
            int before = provider.seen("/token", "refresh_token").size();
            App.Outcome outcome = app.call();
            checks.expect(provider.seen("/token", "refresh_token").size() == before + 1 && outcome.status() == 200,
                    "call " + call + " was preceded by a refresh");
        }
        return checks.done();
    }

    private static List<String> unreadableExpiresIn(String expiresIn, boolean onRefresh) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        answerOddly(provider, onRefresh, accessToken -> "{\"access_token\":\"" + accessToken
                + "\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt-1\",\"expires_in\":" + expiresIn + "}");
        App app = signedIn(provider, onRefresh);
        if (!onRefresh) {
            checks.expect(isExpiresInError(app.signInError), "the sign-in threw IllegalArgumentException naming expires_in");
            for (int call = 1; call <= 2; call++) {
                NoAccessToken.expectBareCall(checks, provider, app.call());
            }
            return checks.done();
        }
        checks.expect(app.signInError == null, "the sign-in succeeded");
        for (int call = 1; call <= 3; call++) {
            int before = provider.seen("/token", "refresh_token").size();
            App.Outcome outcome = app.call();
            checks.expect(provider.seen("/token", "refresh_token").size() == before + 1, "call " + call + " sent a refresh");
            checks.expect(isExpiresInError(outcome.error()), "and threw IllegalArgumentException naming expires_in");
            Probe.say("application: the credential now holds " + App.describe(app.credential));
        }
        checks.expect(provider.seen("/resource", null).isEmpty(), "no call reached the resource");
        checks.expect("at-1".equals(app.credential.getAccessToken()), "the credential still holds the expired at-1");
        return checks.done();
    }

    private static boolean isExpiresInError(Exception error) {
        return error instanceof IllegalArgumentException e && String.valueOf(e.getMessage()).contains("expires_in");
    }
}
