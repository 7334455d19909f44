package probes;

import com.google.api.client.auth.oauth2.AuthorizationCodeFlow;
import com.google.api.client.auth.oauth2.AuthorizationCodeResponseUrl;
import com.google.api.client.auth.oauth2.TokenResponse;
import com.google.api.client.auth.openidconnect.IdToken;
import com.google.api.client.auth.openidconnect.IdTokenResponse;
import com.google.api.client.auth.openidconnect.IdTokenVerifier;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.security.spec.PSSParameterSpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Cause: what google-oauth-client's openidconnect package checks (v1.34.1). IdTokenVerifier.verify
 * (IdTokenVerifier.java:235-252) checks the payload (verifyPayload 274-281: iss, every aud trusted,
 * exp and iat with a 300 s skew through IdToken.verifyTime, IdToken.java:121-144, which unboxes
 * a missing exp or iat into a NullPointerException), then the signature (verifySignature 284-317):
 * RS256 or ES256 only (116-118, 291-294), the key looked up by the header's kid alone in the JWKS
 * of setCertificatesLocation (298), cached an hour per location (164-165, expireAfterWrite) and
 * never fetched again for an unknown kid (303-306). Nothing reads azp, requires sub or checks
 * at_hash. Credential.refreshToken parses a refresh answer as a plain TokenResponse and sets its
 * tokens before any listener runs (Credential.java:466-476): a refresh's id_token is never read.
 *
 * The application is the package's documented one: IdTokenResponse.execute for the code's
 * redemption, IdToken.parse, an IdTokenVerifier built once with setIssuer, setAudience and
 * setCertificatesLocation, and the nonce compared by the application (the verifier takes none).
 */
final class OpenId {
    private OpenId() {}

    static void register() {
        Probe.register("ps256-refused",
                "IdTokenVerifier verifies RS256 and ES256 only: a correct PS256 ID token is refused (\"Unexpected signing algorithm PS256: expected either RS256 or ES256\")",
                () -> refused("PS256", "rsa-1", claims -> {}, "Unexpected signing algorithm PS256: expected either RS256 or ES256"));
        Probe.register("hs256-refused",
                "IdTokenVerifier verifies RS256 and ES256 only, with keys from the JWKS, never the client secret: a correct HS256 ID token is refused (\"Unexpected signing algorithm HS256\")",
                () -> refused("HS256", null, claims -> {}, "Unexpected signing algorithm HS256"));
        Probe.register("kid-absent-refused",
                "IdTokenVerifier looks the key up by kid alone: a token without kid finds none even when the JWKS holds a single key (\"Could not find public key for provided keyId: null\")",
                () -> refused("RS256", null, claims -> {}, "Could not find public key for provided keyId: null"));
        Probe.register("key-rotation-not-followed",
                "IdTokenVerifier caches the JWKS (an hour) and never fetches it again for an unknown kid: after a rotation the new key is not found (\"Could not find public key for provided keyId: rsa-2\")",
                OpenId::rotation);
        Probe.register("sub-missing-accepted",
                "IdTokenVerifier does not require sub: an ID token without one is accepted and its access token used",
                () -> accepted(claims -> claims.remove("sub")));
        Probe.register("azp-unchecked",
                "IdTokenVerifier never reads azp: an ID token whose only audience is this client but whose azp names another-app is accepted and its access token used",
                () -> accepted(claims -> claims.put("azp", "another-app")));
        Probe.register("at-hash-unchecked",
                "at_hash is never checked: an ID token whose at_hash matches no access token is accepted and its access token used",
                () -> accepted(claims -> claims.put("at_hash", "d3JvbmctaGFzaA")));
        Probe.register("exp-missing-npe",
                "IdTokenVerifier.verify throws NullPointerException on an ID token without exp (IdToken.verifyExpirationTime unboxes a null getExpirationTimeSeconds()): not a refusal, a crash",
                () -> crashes(claims -> claims.remove("exp")));
        Probe.register("iat-missing-npe",
                "IdTokenVerifier.verify throws NullPointerException on an ID token without iat (IdToken.verifyIssuedAtTime unboxes a null getIssuedAtTimeSeconds()): not a refusal, a crash",
                () -> crashes(claims -> claims.remove("iat")));
        Probe.register("refresh-id-token-unread",
                "a refresh response's id_token is never read (Credential parses a TokenResponse and sets its tokens before any listener runs): its access token is used although the ID token names another sub or another iss",
                OpenId::refreshIdTokenUnread);
    }

    /** A provider that issues ID tokens: its keys, its JWKS, and how the next ID token is made. */
    static final class OpenIdProvider {
        final Provider provider;
        final KeyPair key1;
        volatile KeyPair key2; // made at the rotation
        volatile boolean rotated;
        volatile String algorithm = "RS256";
        volatile String kid = "rsa-1";
        volatile String nonce;
        volatile Consumer<Map<String, Object>> signIn = claims -> {};
        volatile Consumer<Map<String, Object>> refresh = claims -> {};

        OpenIdProvider() throws Exception {
            provider = new Provider("provider");
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            key1 = generator.generateKeyPair();
            provider.handle("/jwks", exchange -> exchange.json(200, Json.write(Map.of("keys",
                    List.of(rotated ? jwk(key2, "rsa-2") : jwk(key1, "rsa-1"))))));
            provider.handle("/authorize", exchange -> {
                nonce = exchange.form.get("nonce");
                exchange.redirect(302, exchange.form.get("redirect_uri") + "?code=code-1&state=" + exchange.form.get("state"));
            });
            provider.handle("/token", exchange -> {
                boolean refreshing = "refresh_token".equals(exchange.form.get("grant_type"));
                Map<String, Object> claims = new LinkedHashMap<>();
                long now = System.currentTimeMillis() / 1000;
                claims.put("iss", provider.url());
                claims.put("sub", "alice");
                claims.put("aud", Provider.CLIENT_ID);
                claims.put("exp", now + 3600);
                claims.put("iat", now);
                if (!refreshing) {
                    claims.put("nonce", nonce);
                }
                (refreshing ? refresh : signIn).accept(claims);
                Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("access_token", provider.nextAccessToken());
                fields.put("token_type", "Bearer");
                fields.put("expires_in", 3600);
                fields.put("refresh_token", "rt-1");
                fields.put("id_token", sign(claims));
                exchange.json(200, Json.write(fields));
            });
        }

        String issuer() {
            return provider.url();
        }

        /** The provider's key rotation: a new key, the only one its JWKS publishes from now on. */
        void rotate() throws Exception {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            key2 = generator.generateKeyPair();
            kid = "rsa-2";
            rotated = true;
        }

        private static Map<String, Object> jwk(KeyPair key, String kid) {
            RSAPublicKey publicKey = (RSAPublicKey) key.getPublic();
            return Map.of("kty", "RSA", "kid", kid, "alg", "RS256", "use", "sig",
                    "n", base64(unsigned(publicKey.getModulus())), "e", base64(unsigned(publicKey.getPublicExponent())));
        }

        private static byte[] unsigned(BigInteger value) {
            byte[] bytes = value.toByteArray();
            return bytes[0] == 0 ? Arrays.copyOfRange(bytes, 1, bytes.length) : bytes;
        }

        static String base64(byte[] bytes) {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        }

        /** A compact JWS of claims: RS256 or PS256 with the current key, HS256 with the client secret. */
        String sign(Map<String, Object> claims) {
            try {
                Map<String, Object> header = new LinkedHashMap<>();
                header.put("alg", algorithm);
                if (kid != null) {
                    header.put("kid", kid);
                }
                header.put("typ", "JWT");
                String input = base64(Json.write(header).getBytes(StandardCharsets.UTF_8)) + "."
                        + base64(Json.write(claims).getBytes(StandardCharsets.UTF_8));
                byte[] data = input.getBytes(StandardCharsets.US_ASCII);
                byte[] signature;
                KeyPair key = rotated ? key2 : key1;
                switch (algorithm) {
                    case "HS256" -> {
                        Mac mac = Mac.getInstance("HmacSHA256");
                        mac.init(new SecretKeySpec(Provider.CLIENT_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                        signature = mac.doFinal(data);
                    }
                    case "PS256" -> {
                        Signature signer = Signature.getInstance("RSASSA-PSS");
                        signer.setParameter(new PSSParameterSpec("SHA-256", "MGF1", MGF1ParameterSpec.SHA256, 32, 1));
                        signer.initSign(key.getPrivate());
                        signer.update(data);
                        signature = signer.sign();
                    }
                    default -> {
                        Signature signer = Signature.getInstance("SHA256withRSA");
                        signer.initSign(key.getPrivate());
                        signer.update(data);
                        signature = signer.sign();
                    }
                }
                Probe.say("provider: id_token " + Json.write(header) + " " + Json.write(claims));
                return input + "." + base64(signature);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The application's sign-in: what it got, and why it refused (null when it accepted). */
    record SignIn(App app, IdTokenResponse response, IdToken idToken, Boolean verified, String reason, Throwable crash) {}

    /** One application: its transport and Credential, and its verifier, built once. */
    static final class OpenIdApp {
        final App app;
        final IdTokenVerifier verifier;
        final OpenIdProvider op;

        OpenIdApp(OpenIdProvider op) {
            this.op = op;
            this.app = new App(op.provider);
            Probe.say("application: new IdTokenVerifier.Builder().setIssuer(" + op.issuer() + ").setAudience([" + Provider.CLIENT_ID
                    + "]).setCertificatesLocation(" + op.issuer() + "/jwks).build()");
            this.verifier = new IdTokenVerifier.Builder()
                    .setIssuer(op.issuer())
                    .setAudience(List.of(Provider.CLIENT_ID))
                    .setCertificatesLocation(op.issuer() + "/jwks")
                    .build();
        }

        SignIn signIn() throws Exception {
            AuthorizationCodeFlow flow = CodeFlow.flow(app);
            String nonce = "nonce-" + System.nanoTime();
            String url = flow.newAuthorizationUrl().setRedirectUri(Provider.REDIRECT_URI).setScopes(List.of("openid"))
                    .setState("state-1").set("nonce", nonce).build();
            AuthorizationCodeResponseUrl back = new AuthorizationCodeResponseUrl(CodeFlow.browse(url));
            Probe.say("application: IdTokenResponse.execute(flow.newTokenRequest(\"" + back.getCode() + "\"))");
            IdTokenResponse response = IdTokenResponse.execute(flow.newTokenRequest(back.getCode()).setRedirectUri(Provider.REDIRECT_URI));
            IdToken idToken = IdToken.parse(App.JSON, response.getIdToken());
            Probe.say("application: verifier.verify(IdToken.parse(JSON, response.getIdToken()))");
            LoggedReason logged = new LoggedReason();
            Logger logger = Logger.getLogger(IdTokenVerifier.class.getName());
            logger.addHandler(logged);
            try {
                boolean verified = verifier.verify(idToken);
                Probe.say("application: verify returned " + verified + (logged.reason == null ? "" : " (its log: " + logged.reason + ")"));
                if (verified && nonce.equals(idToken.getPayload().getNonce())) {
                    app.credential.setFromTokenResponse(response);
                    Probe.say("application: signed in as sub " + idToken.getPayload().getSubject());
                }
                return new SignIn(app, response, idToken, verified, logged.reason, null);
            } catch (RuntimeException crash) {
                Probe.say("application: verify threw " + crash);
                return new SignIn(app, response, idToken, null, null, crash);
            } finally {
                logger.removeHandler(logged);
            }
        }
    }

    /** verify's own SEVERE record carries the VerificationException it turned into false. */
    static final class LoggedReason extends Handler {
        volatile String reason;

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel() == Level.SEVERE && record.getThrown() != null) {
                reason = record.getThrown().getMessage();
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    private static List<String> refused(String algorithm, String kid, Consumer<Map<String, Object>> change, String why) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        OpenIdProvider op = new OpenIdProvider();
        op.algorithm = algorithm;
        op.kid = kid;
        op.signIn = change;
        SignIn signIn = new OpenIdApp(op).signIn();
        checks.expect(Boolean.FALSE.equals(signIn.verified()) && signIn.reason() != null && signIn.reason().contains(why),
                "verify refused it: \"" + why + "\"");
        return checks.done();
    }

    private static List<String> rotation() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        OpenIdProvider op = new OpenIdProvider();
        OpenIdApp app = new OpenIdApp(op);
        checks.expect(Boolean.TRUE.equals(app.signIn().verified()), "the first sign-in (rsa-1) was accepted");
        Probe.say("-- the provider rotates its key: the JWKS now holds rsa-2, and ID tokens are signed with it");
        op.rotate();
        SignIn second = app.signIn();
        String why = "Could not find public key for provided keyId: rsa-2";
        checks.expect(Boolean.FALSE.equals(second.verified()) && second.reason() != null && second.reason().contains(why),
                "the second was refused: \"" + why + "\"");
        checks.expect(op.provider.seen("/jwks", null).size() == 1, "the JWKS was fetched once, never again ("
                + op.provider.seen("/jwks", null).size() + ")");
        return checks.done();
    }

    private static List<String> accepted(Consumer<Map<String, Object>> change) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        OpenIdProvider op = new OpenIdProvider();
        op.signIn = change;
        SignIn signIn = new OpenIdApp(op).signIn();
        checks.expect(Boolean.TRUE.equals(signIn.verified()), "verify accepted the ID token");
        App.Outcome outcome = signIn.app().call();
        List<Provider.Request> calls = op.provider.seen("/resource", null);
        checks.expect(outcome.status() == 200 && calls.size() == 1 && "Bearer at-1".equals(calls.get(0).authorization()),
                "and its access token at-1 was used");
        return checks.done();
    }

    private static List<String> crashes(Consumer<Map<String, Object>> change) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        OpenIdProvider op = new OpenIdProvider();
        op.signIn = change;
        SignIn signIn = new OpenIdApp(op).signIn();
        checks.expect(signIn.crash() instanceof NullPointerException, "verify threw NullPointerException instead of returning false");
        return checks.done();
    }

    private static List<String> refreshIdTokenUnread() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        for (String claim : List.of("sub", "iss")) {
            OpenIdProvider op = new OpenIdProvider();
            op.refresh = claims -> claims.put(claim, claim.equals("sub") ? "someone-else" : "https://another-issuer.example");
            Probe.say("-- the refresh response's id_token names another " + claim);
            OpenIdApp openId = new OpenIdApp(op);
            SignIn signIn = openId.signIn();
            if (!Boolean.TRUE.equals(signIn.verified())) {
                checks.expect(false, "the sign-in succeeded");
                continue;
            }
            App app = openId.app;
            app.expire();
            App.Outcome outcome = app.call();
            TokenResponse told = app.refreshedWith;
            Probe.say("application: its refresh listener was handed a " + (told == null ? "nothing"
                    : told.getClass().getSimpleName() + " (id_token only among its unknown keys: " + told.containsKey("id_token")
                    + "), the Credential already holding " + app.accessTokenWhenTold));
            List<Provider.Request> calls = op.provider.seen("/resource", null);
            checks.expect(op.provider.seen("/token", "refresh_token").size() == 1, "the call refreshed");
            checks.expect(outcome.status() == 200 && calls.size() == 1 && "Bearer at-2".equals(calls.get(0).authorization()),
                    "and the refresh response's access token at-2 went to the resource in that same call");
            checks.expect(told != null && told.getClass() == TokenResponse.class && "at-2".equals(app.accessTokenWhenTold),
                    "the refresh was read as a plain TokenResponse, its tokens set before the application heard of it");
        }
        return checks.done();
    }
}
