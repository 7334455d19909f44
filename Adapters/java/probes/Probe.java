package probes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * Probes of what Adapters/java/google-oauth-client.yaml claims about google-oauth-client 1.34.1
 * (with google-http-client 1.42.0's NetHttpTransport and GsonFactory), without the harness: each
 * case starts throwaway servers on 127.0.0.1 (com.sun.net.httpserver), drives the library as an
 * application does by its documentation, prints every request the library sent and what it
 * surfaced, and ends with "confirmed: <claim>" (exit 0) when the library does what the claim
 * says, or "not confirmed: <what happened>" (exit 1).
 *
 * <pre>build/probe probes.Probe &lt;case&gt;     (no case: the list)</pre>
 *
 * The cases are grouped by cause, a class each: {@link NoAccessToken} (a Credential without an
 * access token sends the call bare), {@link TokenResponses} (what a token response is read as),
 * {@link Refresh} (what the Credential does around a refused or failed refresh, and its 401
 * handler), {@link CodeFlow} (the redirect back), {@link Redirects} and {@link OpenId}.
 */
public final class Probe {
    /** One claim and the program that checks it: it returns what contradicts the claim. */
    record Case(String claim, Callable<List<String>> run) {}

    private static final Map<String, Case> CASES = new TreeMap<>();

    /** A whole case is bounded, whatever the library does; every request has shorter timeouts. */
    private static final long DEADLINE_MS = 15_000;

    static void register(String name, String claim, Callable<List<String>> run) {
        CASES.put(name, new Case(claim, run));
    }

    public static void main(String[] args) throws Exception {
        NoAccessToken.register();
        TokenResponses.register();
        Refresh.register();
        CodeFlow.register();
        Redirects.register();
        OpenId.register();
        Case chosen = args.length == 1 ? CASES.get(args[0]) : null;
        if (chosen == null) {
            System.err.println("usage: build/probe probes.Probe <case>\ncases:\n  " + String.join("\n  ", CASES.keySet()));
            System.exit(2);
        }
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(DEADLINE_MS);
            } catch (InterruptedException e) {
                return;
            }
            say("not confirmed: the case did not end within " + DEADLINE_MS / 1000 + " s");
            Runtime.getRuntime().halt(1);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        List<String> problems;
        try {
            problems = chosen.run().call();
        } catch (Throwable unexpected) {
            unexpected.printStackTrace(System.out);
            problems = List.of("the probe itself failed: " + unexpected);
        }
        System.out.flush();
        if (problems.isEmpty()) {
            say("confirmed: " + chosen.claim());
            Runtime.getRuntime().halt(0);
        }
        say("not confirmed: " + String.join("; ", problems));
        Runtime.getRuntime().halt(1);
    }

    static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** What contradicts a claim, collected while each check is printed. */
    static final class Checks {
        final List<String> problems = new ArrayList<>();

        Checks expect(boolean ok, String what) {
            say((ok ? "  ✓ " : "  ✗ ") + what);
            if (!ok) {
                problems.add(what);
            }
            return this;
        }

        List<String> done() {
            return problems;
        }
    }
}
