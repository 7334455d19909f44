import com.google.api.client.auth.oauth2.BearerToken;
import com.google.api.client.auth.oauth2.Credential;
import com.google.api.client.http.BasicAuthentication;
import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpRequest;
import com.google.api.client.http.HttpResponse;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.client.json.gson.GsonFactory;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Probe: google-oauth-client 1.34.1 takes a saved session the way AuthorizationCodeFlow.loadCredential
 * rebuilds one from its DataStore (a new Credential, then setAccessToken, setRefreshToken,
 * setExpirationTimeMilliseconds) without a request; Credential.intercept uses a valid one as is and
 * refreshes an expired one with its refresh token before the call (intercept refreshes when
 * getExpiresInSeconds() <= 60, Credential.java:196-211; refreshToken -> executeRefreshToken,
 * Credential.java:540-547). Built by Adapters/java/install.sh; run: build/probe RestoredSession
 */
public final class RestoredSession {
    static final String SAVED_ACCESS = "saved-access-token";
    static final String SAVED_REFRESH = "saved-refresh-token";
    static final String NEW_ACCESS = "new-access-token";
    static final String NEW_REFRESH = "new-refresh-token";

    record Seen(String method, String path, String authorization, Map<String, String> form) {}

    static final List<Seen> REQUESTS = Collections.synchronizedList(new ArrayList<>());

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", RestoredSession::answer);
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        NetHttpTransport transport = new NetHttpTransport();
        try {
            System.out.println("1. a saved session whose access token is valid for an hour");
            Credential valid = restored(transport, base, System.currentTimeMillis() + 3_600_000L);
            boolean quiet = REQUESTS.isEmpty();
            int first = call(transport, valid, base);
            boolean usedAsIs = REQUESTS.size() == 1 && REQUESTS.get(0).path().equals("/resource")
                    && ("Bearer " + SAVED_ACCESS).equals(REQUESTS.get(0).authorization());

            System.out.println("2. a saved session whose access token expired ten seconds ago");
            REQUESTS.clear();
            Credential expired = restored(transport, base, System.currentTimeMillis() - 10_000L);
            quiet = quiet && REQUESTS.isEmpty();
            int second = call(transport, expired, base);
            boolean refreshedFirst = REQUESTS.size() == 2 && REQUESTS.get(0).path().equals("/token")
                    && "refresh_token".equals(REQUESTS.get(0).form().get("grant_type"))
                    && SAVED_REFRESH.equals(REQUESTS.get(0).form().get("refresh_token"))
                    && ("Bearer " + NEW_ACCESS).equals(REQUESTS.get(1).authorization());
            boolean kept = NEW_ACCESS.equals(expired.getAccessToken()) && NEW_REFRESH.equals(expired.getRefreshToken());

            if (quiet && usedAsIs && refreshedFirst && kept && first == 200 && second == 200) {
                System.out.println("confirmed: a Credential given a saved session (setAccessToken, setRefreshToken, "
                        + "setExpirationTimeMilliseconds, as loadCredential does) sends nothing when given it, uses a valid saved "
                        + "access token as is, and refreshes an expired one with the saved refresh token before the call");
                return;
            }
            System.out.println("not confirmed: restored without a request: " + quiet + "; valid token used as is: " + usedAsIs
                    + "; expired one refreshed first: " + refreshedFirst + "; new token held: " + kept);
            System.exit(1);
        } finally {
            transport.shutdown();
            server.stop(0);
        }
    }

    static Credential restored(NetHttpTransport transport, String base, long expiresAtMillis) {
        Credential credential = new Credential.Builder(BearerToken.authorizationHeaderAccessMethod())
                .setTransport(transport)
                .setJsonFactory(GsonFactory.getDefaultInstance())
                .setTokenServerUrl(new GenericUrl(base + "/token"))
                .setClientAuthentication(new BasicAuthentication("probe-client", "probe-secret"))
                .build();
        credential.setAccessToken(SAVED_ACCESS);
        credential.setRefreshToken(SAVED_REFRESH);
        credential.setExpirationTimeMilliseconds(expiresAtMillis);
        return credential;
    }

    static int call(NetHttpTransport transport, Credential credential, String base) throws IOException {
        HttpRequest request = transport.createRequestFactory(credential).buildGetRequest(new GenericUrl(base + "/resource"));
        request.setConnectTimeout(5000).setReadTimeout(5000).setThrowExceptionOnExecuteError(false);
        HttpResponse response = request.execute();
        try {
            System.out.println("  surfaced: " + response.getStatusCode());
            return response.getStatusCode();
        } finally {
            response.disconnect();
        }
    }

    static void answer(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> form = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            int equals = pair.indexOf('=');
            if (equals > 0) {
                form.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        String path = exchange.getRequestURI().getPath();
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        REQUESTS.add(new Seen(exchange.getRequestMethod(), path, authorization, form));
        System.out.println("  request: " + exchange.getRequestMethod() + " " + path + " Authorization=" + authorization + " form=" + form);
        int status;
        String answer;
        if (path.equals("/token") && "refresh_token".equals(form.get("grant_type")) && SAVED_REFRESH.equals(form.get("refresh_token"))) {
            status = 200;
            answer = "{\"access_token\":\"" + NEW_ACCESS + "\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\""
                    + NEW_REFRESH + "\"}";
        } else if (path.equals("/token")) {
            status = 400;
            answer = "{\"error\":\"invalid_grant\"}";
        } else if (path.equals("/resource") && (("Bearer " + SAVED_ACCESS).equals(authorization) || ("Bearer " + NEW_ACCESS).equals(authorization))) {
            status = 200;
            answer = "{\"ok\":true}";
        } else {
            status = 401;
            answer = "{\"error\":\"invalid_token\"}";
        }
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
