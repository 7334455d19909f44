package conformance;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/** The {@code environment} of a {@code reset}: the provider's endpoints and the client's secrets. */
record Environment(
        String tokenEndpoint,
        String authorizationEndpoint,
        String redirectUri,
        String clientId,
        String clientSecret,
        String username,
        String password,
        String caFile,
        String storageDir,
        String issuer,
        String openidConfigurationUrl) {

    static Environment from(JsonObject json) {
        return new Environment(
                string(json, "token_endpoint"),
                string(json, "authorization_endpoint"),
                string(json, "redirect_uri"),
                string(json, "client_id"),
                string(json, "client_secret"),
                string(json, "username"),
                string(json, "password"),
                string(json, "ca_file"),
                string(json, "storage_dir"),
                string(json, "issuer"),
                string(json, "openid_configuration_url"));
    }

    private static String string(JsonObject json, String name) {
        JsonElement value = json.get(name);
        return value == null || value.isJsonNull() ? null : value.getAsString();
    }
}
