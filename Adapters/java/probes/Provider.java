package probes;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;

/**
 * One throwaway origin on 127.0.0.1:0: the handlers a case gives it by path, and every request
 * it was sent, printed as it is answered (method, path, Authorization decoded, form fields or
 * query). Credentials are printed in full: they are the probe's own, and where they go is the
 * point. Its resource is an RFC 6750 one: 200 for a token the provider issued and has not
 * expired or revoked, 401 with a Bearer challenge otherwise (error="invalid_token" when a token
 * was presented), as the harness's provider answers.
 */
final class Provider {
    static final String CLIENT_ID = "probe-client";
    static final String CLIENT_SECRET = "probe-secret";
    static final String USERNAME = "alice";
    static final String PASSWORD = "wonderland";
    static final String REDIRECT_URI = "http://127.0.0.1/callback"; // the application's; nothing listens

    /** What one request was. */
    record Request(String origin, String method, String path, String authorization, Map<String, String> form,
            int status, long at) {
        String grant() {
            return form.get("grant_type");
        }

        @Override
        public String toString() {
            String auth = authorization == null ? "no Authorization" : "Authorization: " + authorization;
            if (authorization != null && authorization.startsWith("Basic ")) {
                auth += " (" + new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8) + ")";
            }
            String fields = form.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
            return origin + " " + method + " " + path + " [" + auth + "] " + fields + " → " + status;
        }
    }

    /** A handler gets the request as read (its form already parsed) and answers it. */
    interface Handler {
        void handle(Exchange exchange) throws IOException;
    }

    /** A request being answered. */
    static final class Exchange {
        final HttpExchange http;
        final Map<String, String> form;
        int status;
        /** Records the request once its status is known, before the answer leaves (so a client never sees it first). */
        private final Runnable record;
        private boolean recorded;

        Exchange(HttpExchange http, Map<String, String> form, Runnable record) {
            this.http = http;
            this.form = form;
            this.record = record;
        }

        void recordOnce() {
            if (!recorded) {
                recorded = true;
                record.run();
            }
        }

        String authorization() {
            return http.getRequestHeaders().getFirst("Authorization");
        }

        void respond(int status, String contentType, String body, String... headers) throws IOException {
            this.status = status;
            recordOnce();
            for (int i = 0; i + 1 < headers.length; i += 2) {
                http.getResponseHeaders().add(headers[i], headers[i + 1]);
            }
            if (contentType != null) {
                http.getResponseHeaders().set("Content-Type", contentType);
            }
            byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            http.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                http.getResponseBody().write(bytes);
            }
            http.close();
        }

        void json(int status, String body, String... headers) throws IOException {
            respond(status, "application/json", body, headers);
        }

        void redirect(int status, String location) throws IOException {
            respond(status, null, null, "Location", location);
        }
    }

    final String name;
    private final HttpServer server;
    private final Map<String, Handler> routes = new ConcurrentHashMap<>();
    private final List<Request> requests = new ArrayList<>();
    /** Access tokens the resource accepts: issued by the token endpoint, not yet expired or revoked. */
    final Set<String> valid = ConcurrentHashMap.newKeySet();
    private final AtomicInteger issued = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile int mostAtOnce;

    Provider(String name) throws IOException {
        this(name, null);
    }

    /** An HTTPS origin when tls is given (the probe's own certificate, TestTls). */
    Provider(String name, SSLContext tls) throws IOException {
        this.name = name;
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls != null) {
            HttpsServer https = HttpsServer.create(address, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
        } else {
            server = HttpServer.create(address, 0);
        }
        server.createContext("/", this::serve);
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable);
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
        handle("/resource", this::resource);
    }

    String url() {
        return (server instanceof HttpsServer ? "https" : "http") + "://127.0.0.1:" + server.getAddress().getPort();
    }

    Provider handle(String path, Handler handler) {
        routes.put(path, handler);
        return this;
    }

    private void serve(HttpExchange http) throws IOException {
        int now = inFlight.incrementAndGet();
        synchronized (this) {
            mostAtOnce = Math.max(mostAtOnce, now);
        }
        String body;
        try (InputStream in = http.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String query = http.getRequestURI().getRawQuery();
        Map<String, String> form = parseForm("GET".equals(http.getRequestMethod()) ? query : body);
        String path = http.getRequestURI().getPath();
        String authorization = http.getRequestHeaders().getFirst("Authorization");
        Map<String, String> asSent = new TreeMap<>(form);
        Exchange[] holder = new Exchange[1];
        Exchange exchange = new Exchange(http, form, () -> {
            inFlight.decrementAndGet();
            Request seen = new Request(name, http.getRequestMethod(), path, authorization, asSent, holder[0].status,
                    System.currentTimeMillis());
            synchronized (requests) {
                requests.add(seen);
            }
            Probe.say("  " + seen);
        });
        holder[0] = exchange;
        Handler handler = routes.get(path);
        try {
            if (handler == null) {
                exchange.respond(404, null, null);
            } else {
                handler.handle(exchange);
            }
        } finally {
            exchange.recordOnce(); // a handler that never answered (the exchange then closes unanswered)
            http.close();
        }
    }

    static Map<String, String> parseForm(String encoded) {
        Map<String, String> form = new TreeMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return form;
        }
        for (String pair : encoded.split("&")) {
            int equals = pair.indexOf('=');
            String key = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            form.put(key, value);
        }
        return form;
    }

    /** The requests sent to path (all paths when null), only those of grant when it is given. */
    List<Request> seen(String path, String grant) {
        synchronized (requests) {
            return requests.stream()
                    .filter(r -> path == null || r.path().equals(path))
                    .filter(r -> grant == null || grant.equals(r.grant()))
                    .toList();
        }
    }

    int mostAtOnce() {
        return mostAtOnce;
    }

    /** The next access token, at-1, at-2, …, which the resource accepts from now on. */
    String nextAccessToken() {
        String token = "at-" + issued.incrementAndGet();
        valid.add(token);
        return token;
    }

    /** An ordinary token response: a new access token, refresh token and lifetime as given. */
    String bearer(String refreshToken, long expiresIn) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("access_token", nextAccessToken());
        fields.put("token_type", "Bearer");
        fields.put("expires_in", expiresIn);
        if (refreshToken != null) {
            fields.put("refresh_token", refreshToken);
        }
        return Json.write(fields);
    }

    /** An RFC 6749 §5.2 error response: 401 for invalid_client, 400 otherwise. */
    static void oauthError(Exchange exchange, String code) throws IOException {
        exchange.json("invalid_client".equals(code) ? 401 : 400,
                "{\"error\":\"" + code + "\",\"error_description\":\"scripted " + code + "\"}");
    }

    private void resource(Exchange exchange) throws IOException {
        String authorization = exchange.authorization();
        if (authorization == null) {
            exchange.respond(401, null, null, "WWW-Authenticate", "Bearer realm=\"probe\"");
        } else if (authorization.startsWith("Bearer ") && valid.contains(authorization.substring(7))) {
            exchange.json(200, "{\"ok\":true}");
        } else {
            exchange.respond(401, null, null, "WWW-Authenticate", "Bearer realm=\"probe\", error=\"invalid_token\"");
        }
    }
}
