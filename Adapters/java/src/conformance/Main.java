package conformance;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * The adapter's process: JSON lines in on stdin, one JSON line out on stdout per message
 * (docs/adapter-protocol.md). stdout belongs to the protocol alone; System.out is pointed at
 * stderr so that nothing the library prints can corrupt it. Logging (java.util.logging) goes to
 * stderr, which the harness keeps per scenario.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT.%1$tL %3$s %4$s %5$s%6$s%n");
        Logging.configure(System.getenv("ADAPTER_LOG_LEVEL"));
        PrintStream protocolOut = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);

        Dispatcher dispatcher = new Dispatcher();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            JsonObject message;
            try {
                message = JsonParser.parseString(line).getAsJsonObject();
            } catch (RuntimeException unreadable) { // not a JSON object: say so, the harness ends the scenario
                JsonObject fault = new JsonObject();
                fault.addProperty("fault", "unreadable message: " + stackTrace(unreadable));
                protocolOut.print(fault + "\n");
                protocolOut.flush();
                continue;
            }
            JsonObject answer;
            try {
                answer = dispatcher.handle(message);
            } catch (Exception | LinkageError thrown) { // a bug in the adapter, not the library
                answer = new JsonObject();
                answer.addProperty("fault", stackTrace(thrown));
            }
            answer.add("id", message.get("id"));
            protocolOut.print(answer + "\n");
            protocolOut.flush();
            if ("shutdown".equals(message.get("op").getAsString())) {
                break;
            }
        }
        System.exit(0); // no lingering non-daemon threads (the JDK's keep-alive cleaner) keep it up
    }

    private static String stackTrace(Throwable thrown) {
        StringWriter text = new StringWriter();
        thrown.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
