package probes;

import com.google.api.client.http.javanet.NetHttpTransport;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Cause: google-http-client's HttpRequest follows redirects itself (followRedirects, true by
 * default) and runs the whole request again, interceptors included (HttpRequest.java:851-880,
 * handleRedirect 1177-1200): handleRedirect drops the Authorization header, and the Credential's
 * interceptor (Credential.java:195-211) or BasicAuthentication sets it again for the new URL,
 * whatever its origin or scheme; a 307/308 keeps the method and the content, so the token
 * request's form goes along. The redirects are bounded by numberOfRetries (10).
 */
final class Redirects {
    private Redirects() {}

    static void register() {
        Probe.register("resource-redirect-carries-token",
                "HttpRequest follows the resource's 302, 307 or 308 and the Credential's interceptor adds the access token again at the other origin",
                () -> resourceRedirect(false));
        Probe.register("https-to-http-redirect-carries-token",
                "HttpRequest follows the HTTPS resource's redirect to plain HTTP and the Credential's interceptor adds the access token again there",
                () -> resourceRedirect(true));
        Probe.register("token-endpoint-redirect-posts-secrets",
                "HttpRequest follows a 307/308 from the token endpoint and posts the form (password included) with the Basic client credentials to the other origin, ten times",
                Redirects::tokenEndpointRedirect);
    }

    /**
     * The probe's certificate for 127.0.0.1, as server key and client trust: install.sh makes it
     * with keytool beside the compiled probes (build/probes/tls.p12).
     */
    private static KeyStore keyStore() throws Exception {
        Path file = Path.of(Redirects.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("tls.p12");
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(file.toFile())) {
            store.load(in, "probe-pass".toCharArray());
        }
        return store;
    }

    private static List<String> resourceRedirect(boolean tls) throws Exception {
        Probe.Checks checks = new Probe.Checks();
        for (int status : tls ? List.of(302) : List.of(302, 307, 308)) {
            Provider provider;
            NetHttpTransport transport;
            if (tls) {
                KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(keyStore(), "probe-pass".toCharArray());
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(keys.getKeyManagers(), null, null);
                provider = new Provider("https-provider", context);
                transport = new NetHttpTransport.Builder().trustCertificates(keyStore()).build();
            } else {
                provider = new Provider("provider");
                transport = new NetHttpTransport();
            }
            Provider other = new Provider("other-origin");
            other.handle("/resource", exchange -> exchange.json(200, "{\"ok\":true}"));
            provider.handle("/token", exchange -> exchange.json(200, provider.bearer("rt-1", 3600)));
            provider.handle("/resource", exchange -> exchange.redirect(status, other.url() + "/resource"));
            Probe.say("-- " + provider.url() + "/resource answers " + status + " Location: " + other.url() + "/resource");
            App app = new App(provider, transport);
            app.signIn();
            app.call();
            List<Provider.Request> there = other.seen("/resource", null);
            checks.expect(there.size() == 1 && "Bearer at-1".equals(there.get(0).authorization()),
                    "the other origin " + other.url() + " got Authorization: Bearer at-1");
        }
        return checks.done();
    }

    private static List<String> tokenEndpointRedirect() throws Exception {
        Probe.Checks checks = new Probe.Checks();
        for (int status : List.of(307, 308)) {
            Provider provider = new Provider("provider");
            Provider other = new Provider("other-origin");
            Probe.say("-- every /token answers " + status + " Location: " + other.url() + "/token");
            provider.handle("/token", exchange -> exchange.redirect(status, other.url() + "/token"));
            other.handle("/token", exchange -> exchange.redirect(status, other.url() + "/token"));
            App app = new App(provider);
            checks.expect(app.signIn() == null, "the sign-in failed");
            List<Provider.Request> there = other.seen("/token", null);
            checks.expect(there.size() == 10, "the other origin got " + there.size() + " POSTs");
            checks.expect(!there.isEmpty() && there.stream().allMatch(r -> Provider.PASSWORD.equals(r.form().get("password"))
                    && r.authorization() != null && r.authorization().startsWith("Basic ")),
                    "each with the password in the form and the Basic client credentials");
        }
        return checks.done();
    }
}
