package probes;

import com.google.api.client.auth.oauth2.AuthorizationCodeFlow;
import com.google.api.client.auth.oauth2.AuthorizationCodeResponseUrl;
import com.google.api.client.auth.oauth2.BearerToken;
import com.google.api.client.auth.oauth2.TokenResponse;
import com.google.api.client.http.GenericUrl;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Cause: the redirect back is parsed, not judged. AuthorizationCodeFlow builds the request
 * (newAuthorizationUrl; the state is the application's, setState) and redeems a code
 * (newTokenRequest(code)); AuthorizationCodeResponseUrl parses code, state and error
 * (AuthorizationCodeResponseUrl.java), and its documented use (its class comment's sample)
 * checks getError() and redeems getCode(). Nothing in the library compares the state with the
 * one sent or reads iss (RFC 9207). An access_denied is surfaced by getError(); the Credential
 * then holds no token, and intercept sends the next call bare (NoAccessToken).
 */
final class CodeFlow {
    private CodeFlow() {}

    static void register() {
        Probe.register("state-unchecked",
                "the library never compares the returned state with the one sent (AuthorizationCodeResponseUrl only parses it): with the state omitted, forged or an earlier one's, the code is redeemed",
                () -> redeemedWhatever("state"));
        Probe.register("issuer-unchecked",
                "there is no RFC 9207 iss check: with iss omitted or naming another issuer, the code is redeemed",
                () -> redeemedWhatever("iss"));
        Probe.register("authorization-denied-bare-call",
                "access_denied is surfaced (AuthorizationCodeResponseUrl.getError()) and nothing is redeemed, but the next call goes out without Authorization instead of failing",
                CodeFlow::denied);
    }

    static AuthorizationCodeFlow flow(App app) {
        return new AuthorizationCodeFlow.Builder(BearerToken.authorizationHeaderAccessMethod(), app.transport, App.JSON,
                new GenericUrl(app.provider.url() + "/token"), App.CLIENT, Provider.CLIENT_ID, app.provider.url() + "/authorize")
                .setRequestInitializer(App.TIMEOUTS)
                .build();
    }

    /** The browser's part: open the URL, and read where the provider sends it back, unfollowed. */
    static String browse(String url) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
        connection.setInstanceFollowRedirects(false);
        connection.setConnectTimeout(3_000);
        connection.setReadTimeout(4_000);
        connection.getResponseCode();
        String back = connection.getHeaderField("Location");
        connection.disconnect();
        Probe.say("browser: sent back to " + back);
        return back;
    }

    /** An authorization endpoint that sends the browser back with the given parameters (the request's state unless given). */
    static Provider.Handler redirectWith(Map<String, String> parameters) {
        return exchange -> {
            Map<String, String> back = new LinkedHashMap<>();
            back.put("state", exchange.form.get("state"));
            back.putAll(parameters);
            back.values().removeIf(v -> v == null);
            String query = back.entrySet().stream()
                    .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                    .collect(Collectors.joining("&"));
            exchange.redirect(302, exchange.form.get("redirect_uri") + "?" + query);
        };
    }

    private static List<String> redeemedWhatever(String parameter) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        List<String> variants = parameter.equals("state") ? List.of("omit", "forged", "previous") : List.of("omit", "https://attacker.example");
        for (String variant : variants) {
            Provider provider = new Provider("provider");
            provider.handle("/token", exchange -> exchange.json(200, provider.bearer("rt-1", 3600)));
            Map<String, String> back = new LinkedHashMap<>();
            back.put("code", "code-1");
            if (parameter.equals("state")) {
                back.put("state", switch (variant) {
                    case "omit" -> null;
                    case "forged" -> "forged-state";
                    default -> "state-0"; // the state of an earlier authorization request
                });
                back.put("iss", provider.url());
            } else {
                back.put("iss", variant.equals("omit") ? null : variant);
            }
            Probe.say("-- the redirect back: " + parameter + " " + variant);
            if (parameter.equals("state")) {
                // redirectWith puts the request's state first; the case's value replaces it.
                provider.handle("/authorize", exchange -> {
                    exchange.form.put("state", back.get("state"));
                    redirectWith(Map.of("code", "code-1", "iss", provider.url())).handle(exchange);
                });
            } else {
                provider.handle("/authorize", redirectWith(back));
            }
            App app = new App(provider);
            AuthorizationCodeFlow flow = flow(app);
            String url = flow.newAuthorizationUrl().setRedirectUri(Provider.REDIRECT_URI).setState("state-1").build();
            Probe.say("application: flow.newAuthorizationUrl().setRedirectUri(…).setState(\"state-1\").build()");
            AuthorizationCodeResponseUrl response = new AuthorizationCodeResponseUrl(browse(url));
            Probe.say("application: new AuthorizationCodeResponseUrl(it): getError()=" + response.getError() + " getState()="
                    + response.getState() + " getCode()=" + response.getCode());
            if (response.getError() == null) {
                TokenResponse tokens = flow.newTokenRequest(response.getCode()).setRedirectUri(Provider.REDIRECT_URI).execute();
                Probe.say("application: flow.newTokenRequest(getCode()).execute() returned " + tokens);
            }
            List<Provider.Request> redeemed = provider.seen("/token", "authorization_code");
            checks.expect(redeemed.size() == 1 && "code-1".equals(redeemed.get(0).form().get("code")) && redeemed.get(0).status() == 200,
                    "nothing objected, and code-1 was redeemed");
        }
        return checks.done();
    }

    private static List<String> denied() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/authorize", redirectWith(Map.of("error", "access_denied", "iss", provider.url())));
        provider.handle("/token", exchange -> Provider.oauthError(exchange, "invalid_grant"));
        App app = new App(provider);
        AuthorizationCodeFlow flow = flow(app);
        String url = flow.newAuthorizationUrl().setRedirectUri(Provider.REDIRECT_URI).setState("state-1").build();
        AuthorizationCodeResponseUrl response = new AuthorizationCodeResponseUrl(browse(url));
        Probe.say("application: new AuthorizationCodeResponseUrl(it): getError()=" + response.getError());
        checks.expect("access_denied".equals(response.getError()), "getError() surfaces access_denied");
        checks.expect(provider.seen("/token", null).isEmpty(), "nothing was redeemed");
        Probe.say("application: the next call, through its Credential (which holds no token)");
        NoAccessToken.expectBareCall(checks, provider, app.call());
        return checks.done();
    }
}
