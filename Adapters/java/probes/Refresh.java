package probes;

import com.google.api.client.auth.oauth2.ClientCredentialsTokenRequest;
import com.google.api.client.auth.oauth2.RefreshTokenRequest;
import com.google.api.client.auth.oauth2.TokenResponseException;
import com.google.api.client.http.GenericUrl;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Cause: what the Credential does around a refresh (Credential.java, google-oauth-client
 * v1.34.1). refreshToken() (466-498) clears only the access token when a 4xx answer has RFC 6749
 * details (484-485), never the refresh token, and rethrows a 4xx; any other failure (5xx, or a
 * status of 0 for bytes that are not HTTP: NetHttpResponse.java:36-37 turns HttpURLConnection's -1 into 0)
 * it swallows, returning false. intercept (195-211)
 * then sends the token it has, expired or not, and does not read Retry-After. handleResponse
 * (224-265) refreshes on any 401 without a Bearer challenge, or with one naming invalid_token,
 * and swallows whatever that refresh throws (260-262: logged "unable to refresh token");
 * HttpRequest replays a request whose handler said so up to its numberOfRetries, 10 by default
 * (google-http-client HttpRequest.java:76, 851-880). executeRefreshToken (539-548) refreshes with
 * a refresh token only: a client_credentials token is never asked for again. A 401 answer to the
 * POST reaches TokenResponseException without its body (NetHttpResponse reads getErrorStream,
 * which HttpURLConnection gives no body for a 401 to a streamed POST), so getDetails() is null.
 */
final class Refresh {
    private Refresh() {}

    static void register() {
        Probe.register("invalid-grant-refresh-token-resent",
                "after a refresh refused with invalid_grant the Credential keeps the refresh token (refreshToken() clears only the access token) and sends it again on the next call",
                () -> refusedRefreshResent(false));
        Probe.register("revoked-family-refresh-token-resent",
                "with rotation, the Credential keeps the revoked refresh token after invalid_grant and sends it again on the next call",
                () -> refusedRefreshResent(true));
        Probe.register("failed-refresh-every-waiter",
                "refreshes are serialised by the Credential's lock, but the refused refresh token is kept, so each of ten calls waiting on an expired token sends its own refresh with it",
                Refresh::failedRefreshEveryWaiter);
        Probe.register("revoked-grant-refreshes-again",
                "the refresh after a 401 fails with invalid_grant, which handleResponse logs and swallows; the 401 reaches the application, and the next call refreshes again with the revoked token",
                Refresh::revokedGrant);
        Probe.register("refresh-error-after-401-swallowed",
                "a refresh after the resource's 401 that fails with invalid_grant or invalid_client is logged and swallowed by handleResponse: the application gets the 401, not the refresh error",
                Refresh::refreshErrorAfter401Swallowed);
        Probe.register("401-storm",
                "every 401 with a Bearer invalid_token challenge makes handleResponse refresh and HttpRequest replay, up to its default of 10 retries: 11 refreshes and 11 calls",
                () -> storm("Bearer realm=\"probe\", error=\"invalid_token\""));
        Probe.register("401-without-challenge",
                "a 401 without a challenge is refreshed and replayed like any 401, up to HttpRequest's default of 10 retries: 11 refreshes",
                () -> storm(null));
        Probe.register("401-basic-challenge",
                "a 401 with a Basic challenge is refreshed and replayed like any 401, up to HttpRequest's default of 10 retries: 11 refreshes",
                () -> storm("Basic realm=\"legacy\""));
        Probe.register("server-error-swallowed",
                "a refresh answered 500, 502, 503 or 504 is swallowed (refreshToken() returns false): the expired token is sent, the 401 handler's refresh fails too, and the application gets the 401, not a server error",
                Refresh::serverErrorSwallowed);
        Probe.register("server-errors-never-surface",
                "a refresh answered 503 (JSON temporarily_unavailable) is swallowed at every call: each call sends the expired token and gets the 401, never an error",
                Refresh::serverErrorsNeverSurface);
        Probe.register("garbage-refresh-swallowed",
                "a refresh answered with bytes that are not HTTP reaches TokenResponseException with status 0 (HttpURLConnection's -1, which NetHttpResponse turns into 0), which refreshToken() swallows like a 5xx: the expired token is sent and the application gets the 401",
                Refresh::garbageSwallowed);
        Probe.register("retry-after-ignored",
                "Retry-After is not read: after a refresh refused with 429 or 503 and Retry-After (seconds or an HTTP date) the next refresh goes out at once (after a 503 the expired token is even sent, and the 401 handler refreshes in the same call)",
                Refresh::retryAfterIgnored);
        Probe.register("refresh-invalid-client-no-details",
                "a refresh answered 401 invalid_client loses its JSON body: TokenResponseException says only \"401 Unauthorized\" and getDetails() is null, so no invalid_client code is surfaced",
                Refresh::invalidClientNoDetails);
        Probe.register("client-credentials-never-refetched",
                "a client_credentials token is never fetched again: once it expired, the expired token is sent and its 401 comes back",
                () -> clientCredentials(1));
        Probe.register("client-credentials-concurrent",
                "a client_credentials token is never fetched again: twenty concurrent calls all send the expired token and get 401",
                () -> clientCredentials(20));
    }

    /** A provider whose password grant answers rt-1 and whose refreshes refresh answers. */
    private static Provider provider(Provider.Handler refresh) throws IOException {
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> {
            if ("password".equals(exchange.form.get("grant_type"))) {
                exchange.json(200, provider.bearer("rt-1", 3600));
            } else {
                refresh.handle(exchange);
            }
        });
        return provider;
    }

    private static List<String> refusedRefreshResent(boolean rotation) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        AtomicInteger refreshes = new AtomicInteger();
        Provider[] holder = new Provider[1];
        Provider provider = provider(exchange -> {
            if (rotation && refreshes.incrementAndGet() == 1) {
                exchange.json(200, holder[0].bearer("rt-2", 3600));
            } else {
                Provider.oauthError(exchange, "invalid_grant");
            }
        });
        holder[0] = provider;
        App app = new App(provider);
        app.signIn();
        app.expire();
        if (rotation) {
            checks.expect(app.call().status() == 200, "the first refresh rotated rt-1 to rt-2 and the call went on");
            Probe.say("-- the provider revokes the token family");
            app.expire();
        }
        String refused = rotation ? "rt-2" : "rt-1";
        App.Outcome first = app.call();
        checks.expect(App.isTokenError(first.error(), "invalid_grant"), "the call failed with TokenResponseException invalid_grant");
        Probe.say("application: the credential now holds " + App.describe(app.credential));
        checks.expect(refused.equals(app.credential.getRefreshToken()), "the Credential still holds " + refused);
        app.call();
        List<Provider.Request> sent = provider.seen("/token", "refresh_token");
        Provider.Request last = sent.get(sent.size() - 1);
        checks.expect(sent.size() == (rotation ? 3 : 2) && refused.equals(last.form().get("refresh_token")),
                "the next call sent " + refused + " again (" + sent.size() + " refreshes)");
        return checks.done();
    }

    private static List<String> failedRefreshEveryWaiter() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = provider(exchange -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Provider.oauthError(exchange, "invalid_grant");
        });
        App app = new App(provider);
        app.signIn();
        app.expire();
        List<App.Outcome> outcomes = concurrently(10, app);
        checks.expect(outcomes.stream().allMatch(o -> App.isTokenError(o.error(), "invalid_grant")),
                "all ten calls failed with invalid_grant");
        checks.expect(provider.mostAtOnce() == 1, "the refreshes never overlapped: the lock queued the callers");
        List<Provider.Request> sent = provider.seen("/token", "refresh_token");
        checks.expect(sent.size() == 10 && sent.stream().allMatch(r -> "rt-1".equals(r.form().get("refresh_token"))),
                "yet each of the ten sent its own refresh with rt-1 (" + sent.size() + " refreshes)");
        checks.expect(provider.seen("/resource", null).isEmpty(), "no call reached the resource");
        return checks.done();
    }

    static List<App.Outcome> concurrently(int times, App app) throws Exception {
        Probe.say("application: " + times + " threads call the resource at once through the one Credential");
        ExecutorService pool = Executors.newFixedThreadPool(times);
        List<Future<App.Outcome>> futures = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            futures.add(pool.submit(() -> app.call()));
        }
        List<App.Outcome> outcomes = new ArrayList<>();
        for (Future<App.Outcome> future : futures) {
            outcomes.add(future.get(12, TimeUnit.SECONDS));
        }
        pool.shutdown();
        return outcomes;
    }

    private static List<String> revokedGrant() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = provider(exchange -> Provider.oauthError(exchange, "invalid_grant"));
        App app = new App(provider);
        app.signIn();
        Probe.say("-- the provider revokes the grant: at-1 and rt-1");
        provider.valid.clear();
        App.Outcome first = app.call();
        checks.expect(first.status() == 401 && !(first.error() instanceof TokenResponseException),
                "the call's 401 reached the application, not the invalid_grant");
        checks.expect(provider.seen("/token", "refresh_token").size() == 1, "after one refresh, in the 401 handler");
        app.call();
        List<Provider.Request> sent = provider.seen("/token", "refresh_token");
        checks.expect(sent.size() == 2 && "rt-1".equals(sent.get(1).form().get("refresh_token")),
                "the next call refreshed again with the revoked rt-1");
        return checks.done();
    }

    private static List<String> refreshErrorAfter401Swallowed() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        for (String code : List.of("invalid_grant", "invalid_client")) {
            Probe.say("-- the resource answers the first call 401 invalid_token; the refresh is refused with " + code);
            Provider provider = provider(exchange -> Provider.oauthError(exchange, code));
            App app = new App(provider);
            app.signIn();
            provider.valid.clear(); // the resource refuses at-1
            App.Outcome outcome = app.call();
            checks.expect(provider.seen("/token", "refresh_token").size() == 1, "handleResponse refreshed once");
            checks.expect(outcome.status() == 401 && !(outcome.error() instanceof TokenResponseException),
                    "the application got the 401, not the " + code + " (" + App.describe(outcome.error()) + ")");
        }
        return checks.done();
    }

    private static List<String> storm(String challenge) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider[] holder = new Provider[1];
        Provider provider = provider(exchange -> exchange.json(200, holder[0].bearer(null, 3600)));
        holder[0] = provider;
        provider.handle("/resource", exchange -> {
            if (challenge == null) {
                exchange.respond(401, null, null);
            } else {
                exchange.respond(401, null, null, "WWW-Authenticate", challenge);
            }
        });
        Probe.say("-- the resource answers every call 401" + (challenge == null ? " without a challenge" : " " + challenge));
        App app = new App(provider);
        app.signIn();
        app.call();
        int refreshes = provider.seen("/token", "refresh_token").size();
        int calls = provider.seen("/resource", null).size();
        checks.expect(refreshes == 11 && calls == 11, "one call made " + calls + " requests and " + refreshes + " refreshes");
        return checks.done();
    }

    private static List<String> serverErrorSwallowed() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        for (int status : List.of(500, 502, 503, 504)) {
            Probe.say("-- every refresh is answered " + status + " (HTML)");
            Provider provider = provider(exchange -> exchange.respond(status, "text/html",
                    "<html><body><h1>" + status + "</h1><p>upstream unavailable</p></body></html>"));
            App app = new App(provider);
            app.signIn();
            app.expire();
            App.Outcome outcome = app.call();
            expectExpiredSentAnd401(checks, provider, outcome, 2);
        }
        return checks.done();
    }

    /** The expired at-1 went to the resource, refreshes refreshes were tried, and the app got the 401. */
    private static void expectExpiredSentAnd401(Probe.Checks checks, Provider provider, App.Outcome outcome, int refreshes) {
        List<Provider.Request> calls = provider.seen("/resource", null);
        checks.expect(!calls.isEmpty() && "Bearer at-1".equals(calls.get(0).authorization()),
                "the expired at-1 was sent to the resource");
        checks.expect(provider.seen("/token", "refresh_token").size() == refreshes,
                "after " + refreshes + " refreshes, the second in the 401 handler (" + provider.seen("/token", "refresh_token").size() + ")");
        checks.expect(outcome.status() == 401 && !(outcome.error() instanceof TokenResponseException),
                "the application got the 401, not a server error");
    }

    private static List<String> serverErrorsNeverSurface() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = provider(exchange -> exchange.json(503, "{\"error\":\"temporarily_unavailable\"}"));
        App app = new App(provider);
        app.signIn();
        app.expire();
        for (int call = 1; call <= 2; call++) {
            App.Outcome outcome = app.call();
            checks.expect(outcome.status() == 401 && !(outcome.error() instanceof TokenResponseException),
                    "call " + call + " got the 401, not an error of the refresh");
        }
        checks.expect(provider.seen("/resource", null).stream().allMatch(r -> "Bearer at-1".equals(r.authorization())),
                "every call sent the expired at-1");
        return checks.done();
    }

    private static List<String> garbageSwallowed() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> exchange.json(200, provider.bearer("rt-1", 3600)));
        App app = new App(provider);
        app.signIn();
        try (ServerSocket garbage = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> answerGarbage(garbage));
            server.setDaemon(true);
            server.start();
            String tokenUrl = "http://127.0.0.1:" + garbage.getLocalPort() + "/token";
            // The same tokens, in a Credential whose token server now answers with bytes that are
            // not HTTP (as AuthorizationCodeFlow.loadCredential rebuilds one from storage).
            Probe.say("-- the token endpoint " + tokenUrl + " now answers SSH-2.0-OpenSSH_9.6 and closes");
            App restored = new App(provider, app.transport, tokenUrl);
            restored.credential.setAccessToken(app.credential.getAccessToken()).setRefreshToken(app.credential.getRefreshToken());
            restored.expire();
            App.Outcome outcome = restored.call();
            checks.expect(garbageRefreshes.get() == 2, "two refreshes met the garbage, the second in the 401 handler (" + garbageRefreshes.get() + ")");
            List<Provider.Request> calls = provider.seen("/resource", null);
            checks.expect(!calls.isEmpty() && "Bearer at-1".equals(calls.get(0).authorization()), "the expired at-1 was sent to the resource");
            checks.expect(outcome.status() == 401 && !(outcome.error() instanceof TokenResponseException), "the application got the 401");
            Probe.say("application: credential.refreshToken()");
            boolean refreshed = restored.credential.refreshToken();
            checks.expect(!refreshed, "refreshToken() returns false: the failure is swallowed");
            Probe.say("application: the same refresh as a RefreshTokenRequest, to see what refreshToken() swallowed");
            try {
                new RefreshTokenRequest(app.transport, App.JSON, new GenericUrl(tokenUrl), "rt-1")
                        .setClientAuthentication(App.CLIENT).setRequestInitializer(App.TIMEOUTS).execute();
                checks.expect(false, "the RefreshTokenRequest failed");
            } catch (TokenResponseException e) {
                Probe.say("application: execute() threw " + App.describe(e));
                checks.expect(e.getStatusCode() == 0, "it is a TokenResponseException with status 0, not a 4xx");
            }
        }
        return checks.done();
    }

    private static final AtomicInteger garbageRefreshes = new AtomicInteger();

    private static void answerGarbage(ServerSocket server) {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                socket.setSoTimeout(3_000);
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[8192];
                int read = in.read(buffer);
                String head = read > 0 ? new String(buffer, 0, read, StandardCharsets.UTF_8) : "";
                garbageRefreshes.incrementAndGet();
                Probe.say("  garbage-endpoint " + head.lines().findFirst().orElse("") + " "
                        + (head.contains("grant_type=refresh_token") ? "grant_type=refresh_token " : "") + "→ SSH-2.0-OpenSSH_9.6, closed");
                OutputStream out = socket.getOutputStream();
                out.write("SSH-2.0-OpenSSH_9.6\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
            }
        }
    }

    private static List<String> retryAfterIgnored() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        for (int status : List.of(429, 503)) {
            for (String format : List.of("seconds", "http_date")) {
                String retryAfter = format.equals("seconds") ? "30"
                        : DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(30));
                Probe.say("-- the first refresh is refused with " + status + ", Retry-After: " + retryAfter);
                AtomicInteger refreshes = new AtomicInteger();
                Provider[] holder = new Provider[1];
                Provider provider = provider(exchange -> {
                    if (refreshes.incrementAndGet() == 1) {
                        exchange.respond(status, null, null, "Retry-After", retryAfter);
                    } else {
                        exchange.json(200, holder[0].bearer("rt-1", 3600));
                    }
                });
                holder[0] = provider;
                App app = new App(provider);
                app.signIn();
                app.expire();
                app.call();
                if (status == 429) {
                    app.call();
                }
                List<Provider.Request> sent = provider.seen("/token", "refresh_token");
                checks.expect(sent.size() == 2, "the refresh went out again (" + sent.size() + " refreshes)");
                if (sent.size() == 2) {
                    long gap = sent.get(1).at() - sent.get(0).at();
                    checks.expect(gap < 5_000, gap + " ms after the refused one, not 30 s"
                            + (status == 503 ? ", in the same call" : ", at the next call"));
                }
                if (status == 503) {
                    List<Provider.Request> calls = provider.seen("/resource", null);
                    checks.expect(!calls.isEmpty() && "Bearer at-1".equals(calls.get(0).authorization()),
                            "after the 503 the expired at-1 was sent");
                }
            }
        }
        return checks.done();
    }

    private static List<String> invalidClientNoDetails() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = provider(exchange -> Provider.oauthError(exchange, "invalid_client"));
        App app = new App(provider);
        app.signIn();
        app.expire();
        App.Outcome outcome = app.call();
        checks.expect(outcome.error() instanceof TokenResponseException e && e.getStatusCode() == 401 && e.getDetails() == null
                && App.firstLine(e.getMessage()).startsWith("401 Unauthorized") && !String.valueOf(e.getMessage()).contains("invalid_client"),
                "the call failed with TokenResponseException \"401 Unauthorized\", getDetails() null, no invalid_client");
        return checks.done();
    }

    private static List<String> clientCredentials(int times) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        Provider provider = new Provider("provider");
        provider.handle("/token", exchange -> exchange.json(200, provider.bearer(null, 3600)));
        App app = new App(provider);
        Probe.say("application: new ClientCredentialsTokenRequest(…).setClientAuthentication(BasicAuthentication).execute()");
        app.credential.setFromTokenResponse(new ClientCredentialsTokenRequest(app.transport, App.JSON,
                new GenericUrl(provider.url() + "/token")).setClientAuthentication(App.CLIENT)
                .setRequestInitializer(App.TIMEOUTS).execute());
        checks.expect(app.call().status() == 200, "the first call used at-1");
        app.expire();
        List<App.Outcome> outcomes = times == 1 ? List.of(app.call()) : concurrently(times, app);
        checks.expect(provider.seen("/token", null).size() == 1, "no token was asked for again ("
                + provider.seen("/token", null).size() + " token requests in all)");
        List<Provider.Request> calls = provider.seen("/resource", null);
        checks.expect(calls.size() == times + 1 && calls.stream().allMatch(r -> "Bearer at-1".equals(r.authorization())),
                "every call sent the expired at-1");
        checks.expect(outcomes.stream().allMatch(o -> o.status() == 401), "and got its 401");
        return checks.done();
    }
}
