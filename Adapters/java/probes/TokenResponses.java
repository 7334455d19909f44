package probes;

import java.util.List;

/**
 * Cause: what google-oauth-client reads of a token response. TokenResponse
 * (TokenResponse.java) has access_token, token_type, expires_in as a Long and refresh_token,
 * parsed by google-http-client's JsonParser, which throws IllegalArgumentException for an
 * expires_in that is a JSON string or a fraction. Credential never reads token_type: its access
 * method writes "Bearer " + the token (BearerToken.java, AuthorizationHeaderAccessMethod).
 * setFromTokenResponse keeps the old refresh token only when the new one is Java null
 * (Credential.java:512-521), and a JSON null or "" is neither. intercept refreshes whenever
 * getExpiresInSeconds() is 60 or less (Credential.java:198-201).
 */
final class TokenResponses {
    private TokenResponses() {}

    static void register() {
        Probe.register("token-type-sent-as-bearer",
                "token_type is never read: a token of type mac, n_a or dpop is sent to the resource as a Bearer token",
                TokenResponses::tokenTypeIgnored);
        Probe.register("refresh-token-null-replaces",
                "\"refresh_token\": null in a refresh response replaces the refresh token the Credential had: the next refresh is sent without one (invalid_request)",
                () -> replacedRefreshToken("null"));
        Probe.register("refresh-token-empty-replaces",
                "\"refresh_token\": \"\" in a refresh response replaces the refresh token the Credential had: the next refresh sends refresh_token= (invalid_grant)",
                () -> replacedRefreshToken("\"\""));
        Probe.register("expires-in-20",
                "intercept refreshes whenever 60 s or fewer remain, so a 20-second token is refreshed before every request",
                () -> refreshBeforeEveryCall(20));
        Probe.register("expires-in-0",
                "an expires_in of 0 leaves 60 s or fewer: intercept refreshes before every request (a refresh for each of four calls)",
                () -> refreshBeforeEveryCall(0));
        Probe.register("expires-in-negative",
                "a negative expires_in (-60) leaves 60 s or fewer: intercept refreshes before every request (a refresh for each of four calls)",
                () -> refreshBeforeEveryCall(-60));
        Probe.register("expires-in-string",
                "expires_in as the string \"3600\" makes the JSON parser throw IllegalArgumentException (\"key expires_in\"): the sign-in fails and every later call goes out without Authorization",
                () -> unreadableExpiresIn("\"3600\""));
        Probe.register("expires-in-soon",
                "an unreadable expires_in (\"soon\") makes the JSON parser throw IllegalArgumentException (\"key expires_in\"): the sign-in fails and every later call goes out without Authorization",
                () -> unreadableExpiresIn("\"soon\""));
        Probe.register("expires-in-fraction",
                "a fractional expires_in (7199.5) makes the JSON parser throw IllegalArgumentException (\"key expires_in\", a Long field): the sign-in fails and every later call goes out without Authorization",
                () -> unreadableExpiresIn("7199.5"));
    }

    private static List<String> tokenTypeIgnored() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        for (String type : List.of("mac", "n_a", "dpop")) {
            Probe.say("-- the token response says token_type \"" + type + "\"");
            Provider provider = new Provider("provider");
            provider.handle("/token", exchange -> exchange.json(200,
                    "{\"access_token\":\"" + provider.nextAccessToken() + "\",\"token_type\":\"" + type + "\",\"expires_in\":3600}"));
            App app = new App(provider);
            checks.expect(app.signIn() != null, "the sign-in accepted it");
            app.call();
            List<Provider.Request> calls = provider.seen("/resource", null);
            checks.expect(calls.size() == 1 && "Bearer at-1".equals(calls.get(0).authorization()),
                    "the resource got Authorization: Bearer at-1");
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

    private static List<String> refreshBeforeEveryCall(long expiresIn) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> exchange.json(200, provider.bearer("rt-1", expiresIn)));
        App app = new App(provider);
        app.signIn();
        int calls = expiresIn == 20 ? 2 : 4;
        for (int call = 1; call <= calls; call++) {
            int before = provider.seen("/token", "refresh_token").size();
            App.Outcome outcome = app.call();
            checks.expect(provider.seen("/token", "refresh_token").size() == before + 1 && outcome.status() == 200,
                    "call " + call + " was preceded by a refresh");
        }
        return checks.done();
    }

    private static List<String> unreadableExpiresIn(String expiresIn) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> exchange.json(200, "{\"access_token\":\"" + provider.nextAccessToken()
                + "\",\"token_type\":\"Bearer\",\"refresh_token\":\"rt-1\",\"expires_in\":" + expiresIn + "}"));
        App app = new App(provider);
        app.signIn();
        checks.expect(app.signInError instanceof IllegalArgumentException e && String.valueOf(e.getMessage()).contains("expires_in"),
                "the sign-in threw IllegalArgumentException naming expires_in");
        for (int call = 1; call <= 2; call++) {
            NoAccessToken.expectBareCall(checks, provider, app.call());
        }
        return checks.done();
    }
}
