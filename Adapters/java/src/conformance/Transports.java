package conformance;

import com.google.api.client.http.HttpRequest;
import com.google.api.client.http.HttpRequestInitializer;
import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.javanet.NetHttpTransport;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;

/**
 * The HTTP side of the library: google-http-client's {@link NetHttpTransport} (HttpURLConnection
 * underneath), and the timeouts every request gets.
 */
final class Transports {
    /**
     * google-http-client's defaults are 20 s to connect and 20 s to read, more than the profile's
     * 15 s per message; one message may make a refresh and a resource call, so each wait is kept
     * well below it.
     */
    static final int CONNECT_TIMEOUT_MS = 3_000;
    static final int READ_TIMEOUT_MS = 4_000;

    /** Sets the timeouts on a request; given to every token request and to the resource calls. */
    static final HttpRequestInitializer TIMEOUTS = (HttpRequest request) -> {
        request.setConnectTimeout(CONNECT_TIMEOUT_MS);
        request.setReadTimeout(READ_TIMEOUT_MS);
    };

    private Transports() {}

    /**
     * A transport that trusts only {@code caFile} when it is given (the provider's test CA), and
     * the JDK's default trust store otherwise (the provider then speaks plain HTTP).
     */
    static HttpTransport create(String caFile) throws IOException, GeneralSecurityException {
        NetHttpTransport.Builder builder = new NetHttpTransport.Builder();
        if (caFile != null) {
            try (InputStream pem = new FileInputStream(caFile)) {
                builder.trustCertificatesFromStream(pem); // a KeyStore of exactly these certificates
            }
        }
        return builder.build();
    }

    /** The resource calls' initializer: the timeouts, then the Credential's own initialize(). */
    static HttpRequestInitializer withCredential(HttpRequestInitializer credential) {
        return (HttpRequest request) -> {
            TIMEOUTS.initialize(request);
            credential.initialize(request); // installs its interceptor and 401 handler
        };
    }
}
