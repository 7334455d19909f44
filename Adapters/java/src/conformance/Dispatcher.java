package conformance;

import com.google.api.client.auth.oauth2.Credential;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * The protocol's operations (docs/adapter-protocol.md, "Messages"): each message to the client's
 * call, each outcome or library error to its answer. An exception escaping {@link #handle} is a
 * fault of the adapter, which Main reports as such.
 */
final class Dispatcher {
    static final int PROTOCOL = 1;
    static final String NAME = "google-oauth-client";
    static final String[] CAPABILITIES = {
        "proactive_refresh", "refresh_on_401", "authorization_code", "restart", "custom_ca", "concurrency", "virtual_clock",
        "openid",
    };

    /** A concurrently batch waits at most this long for its operations (below the operation timeout). */
    private static final long BATCH_TIMEOUT_SECONDS = 14;

    private static final Logger LOG = Logger.getLogger(Dispatcher.class.getName());

    private final VirtualClock clock = new VirtualClock();
    private GoogleOAuthClient client;

    JsonObject handle(JsonObject message) throws Exception {
        String op = message.get("op").getAsString();
        if (message.has("now") && !message.get("now").isJsonNull()) {
            clock.set(message.get("now").getAsDouble()); // before acting: the library reads it
        }
        LOG.info("<- " + op);
        if (client == null && !op.equals("hello") && !op.equals("reset") && !op.equals("shutdown")) {
            // The harness broke the protocol, not the library: a fault (Main reports a thrown
            // exception as one), never an error the library would be blamed for.
            throw new IllegalStateException(op + " before reset");
        }
        switch (op) {
            case "hello":
                return hello(message);
            case "reset":
                if (client != null) {
                    client.end();
                }
                client = new GoogleOAuthClient(Environment.from(message.getAsJsonObject("environment")), clock);
                return ok();
            case "authorization_url":
            case "sign_in_url":
                try {
                    JsonObject answer = ok();
                    answer.addProperty("url", op.equals("sign_in_url") ? client.signInUrl() : client.authorizationUrl());
                    return answer;
                } catch (Exception | LinkageError thrown) {
                    return failure(op, thrown);
                }
            case "identity":
                return identity();
            case "concurrently":
                return concurrently(message.getAsJsonArray("operations"));
            case "tokens":
                return tokens();
            case "advance":
                return ok(); // the Credential reads the clock when it acts; no timers of its own
            case "end":
            case "shutdown":
                if (client != null) {
                    client.end();
                }
                return ok();
            default:
                return outcome(message);
        }
    }

    private JsonObject hello(JsonObject message) {
        if (message.get("protocol").getAsInt() != PROTOCOL) {
            ClientError error = ClientError.unsupported("this adapter speaks protocol " + PROTOCOL);
            return failure("hello", error);
        }
        JsonObject answer = ok();
        answer.addProperty("protocol", PROTOCOL);
        answer.addProperty("name", NAME);
        answer.addProperty("version", libraryVersion());
        JsonArray capabilities = new JsonArray();
        for (String capability : CAPABILITIES) {
            capabilities.add(capability);
        }
        answer.add("capabilities", capabilities);
        return answer;
    }

    /** The version in the library jar's manifest (Implementation-Version). */
    private static String libraryVersion() {
        String version = Credential.class.getPackage().getImplementationVersion();
        return version != null ? version : "unknown";
    }

    /** A login, request, restart, restore_tokens or code redemption: its outcome or the library's error. */
    private JsonObject outcome(JsonObject operation) {
        String op = operation.get("op").getAsString();
        try {
            switch (op) {
                case "login":
                    client.login(operation.get("grant").getAsString());
                    return okStatus(200, null);
                case "complete_authorization":
                    client.completeAuthorization(operation.get("redirect_url").getAsString());
                    return okStatus(200, null);
                case "request":
                    GoogleOAuthClient.Response response = client.request(
                            operation.get("method").getAsString(),
                            operation.get("url").getAsString(),
                            headers(operation.get("headers")),
                            nullableString(operation.get("body")));
                    return okStatus(response.status(), response.body());
                case "complete_sign_in":
                    client.completeSignIn(operation.get("redirect_url").getAsString());
                    return okStatus(200, null);
                case "userinfo":
                    GoogleOAuthClient.Response claims = client.userinfo();
                    return okStatus(claims.status(), claims.body());
                case "restart":
                    client.restart();
                    return ok();
                case "restore_tokens":
                    JsonElement expiresAt = operation.get("expires_at");
                    client.restoreTokens(
                            operation.get("access_token").getAsString(),
                            operation.get("token_type").getAsString(),
                            nullableString(operation.get("refresh_token")),
                            expiresAt == null || expiresAt.isJsonNull() ? null : expiresAt.getAsDouble());
                    return okStatus(200, null);
                default:
                    return failure(op, ClientError.unsupported("unknown operation " + op));
            }
        } catch (Exception | LinkageError thrown) {
            return failure(op, thrown);
        }
    }

    /**
     * Every operation on a thread of its own, all released at once by a latch, sharing the one
     * Credential, as an application's simultaneous calls do; bounded in time.
     */
    private JsonObject concurrently(JsonArray operations) throws Exception {
        int count = operations.size();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, count));
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<JsonObject>> futures = new ArrayList<>();
            for (JsonElement element : operations) {
                JsonObject operation = element.getAsJsonObject();
                futures.add(pool.submit(() -> {
                    start.await();
                    return outcome(operation);
                }));
            }
            start.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BATCH_TIMEOUT_SECONDS);
            JsonArray outcomes = new JsonArray();
            for (Future<JsonObject> future : futures) {
                outcomes.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            JsonObject answer = ok();
            answer.add("outcomes", outcomes);
            return answer;
        } finally {
            pool.shutdownNow();
        }
    }

    private JsonObject tokens() {
        JsonObject answer = ok();
        Credential held = client.tokens();
        if (held == null) {
            answer.add("tokens", JsonNull.INSTANCE);
            return answer;
        }
        JsonObject tokens = new JsonObject();
        tokens.addProperty("access_token", held.getAccessToken());
        tokens.addProperty("refresh_token", held.getRefreshToken());
        Long expiresAt = held.getExpirationTimeMilliseconds();
        if (expiresAt == null) {
            tokens.add("expires_at", JsonNull.INSTANCE);
        } else {
            tokens.addProperty("expires_at", expiresAt / 1000.0);
        }
        answer.add("tokens", tokens);
        return answer;
    }

    private JsonObject identity() {
        JsonObject answer = ok();
        OpenIdConnect.Identity user = client.identity();
        if (user == null) {
            answer.add("identity", JsonNull.INSTANCE);
        } else {
            JsonObject identity = new JsonObject();
            identity.addProperty("iss", user.issuer());
            identity.addProperty("sub", user.subject());
            answer.add("identity", identity);
        }
        return answer;
    }

    private static JsonObject failure(String op, Throwable thrown) {
        ClientError error = ErrorClassifier.classify(thrown);
        LOG.info(op + " failed: " + (error.type != null ? error.type : "ClientError") + ": " + error.getMessage());
        if ("unexpected".equals(error.category)) {
            LOG.log(java.util.logging.Level.INFO, "the library crashed", thrown);
        }
        JsonObject fields = new JsonObject();
        if (error.category != null) {
            fields.addProperty("category", error.category);
        }
        fields.addProperty("message", error.getMessage());
        if (error.oauthError != null) {
            fields.addProperty("oauth_error", error.oauthError);
        }
        if (error.status != null) {
            fields.addProperty("status", error.status);
        }
        if (error.type != null) {
            fields.addProperty("type", error.type);
        }
        JsonObject answer = new JsonObject();
        answer.addProperty("ok", false);
        answer.add("error", fields);
        return answer;
    }

    private static JsonObject ok() {
        JsonObject answer = new JsonObject();
        answer.addProperty("ok", true);
        return answer;
    }

    private static JsonObject okStatus(int status, String body) {
        JsonObject answer = ok();
        answer.addProperty("status", status);
        if (body != null) {
            answer.addProperty("body", body);
        }
        return answer;
    }

    private static Map<String, String> headers(JsonElement json) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (json != null && json.isJsonObject()) {
            for (Map.Entry<String, JsonElement> header : json.getAsJsonObject().entrySet()) {
                headers.put(header.getKey(), header.getValue().getAsString());
            }
        }
        return headers;
    }

    private static String nullableString(JsonElement json) {
        return json == null || json.isJsonNull() ? null : json.getAsString();
    }
}
