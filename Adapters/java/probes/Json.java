package probes;

import com.google.gson.GsonBuilder;

/** JSON bodies the probe's servers send, nulls written out (a "refresh_token": null is a case). */
final class Json {
    private Json() {}

    static String write(Object value) {
        return new GsonBuilder().serializeNulls().disableHtmlEscaping().create().toJson(value);
    }
}
