package conformance;

import com.google.api.client.util.Clock;

/**
 * The harness's virtual time, as the library's own {@link Clock}. Credential reads it for every
 * expiry decision (getExpiresInSeconds, setExpiresInSeconds); the adapter sets it from each
 * message's {@code now} before acting, so a one-hour token costs no real time.
 */
final class VirtualClock implements Clock {
    private volatile long millis = System.currentTimeMillis();

    /** {@code now} is Unix seconds to the millisecond, as the protocol sends it. */
    void set(double nowSeconds) {
        millis = Math.round(nowSeconds * 1000.0);
    }

    @Override
    public long currentTimeMillis() {
        return millis;
    }
}
