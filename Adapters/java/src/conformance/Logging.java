package conformance;

import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * java.util.logging to stderr (the harness keeps it per scenario). ADAPTER_LOG_LEVEL=CONFIG (or
 * FINE) in the profile's environment also shows google-http-client's own log of every request and
 * response (com.google.api.client.http.HttpTransport), bodies included: for debugging only, as
 * those bodies hold tokens.
 */
final class Logging {
    private Logging() {}

    static void configure(String levelName) {
        Level level = Level.INFO;
        if (levelName != null && !levelName.isBlank()) {
            level = Level.parse(levelName.trim().toUpperCase());
        }
        Logger root = Logger.getLogger("");
        for (var handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler stderr = new ConsoleHandler(); // writes to System.err
        stderr.setLevel(level);
        root.addHandler(stderr);
        root.setLevel(Level.INFO);
        Logger.getLogger("com.google.api.client.http").setLevel(level);
        Logger.getLogger("conformance").setLevel(level);
    }
}
