package conformance;

import com.google.api.client.json.GenericJson;
import com.google.api.client.util.Key;

/**
 * The members of the provider's discovery document (OIDC Discovery §3) the application reads,
 * as a google-http-client data class: the library has no discovery client, so the application
 * parses the document with the library's JSON parser. Public, as the parser builds it by reflection.
 */
public final class ProviderMetadata extends GenericJson {
    @Key public String issuer;

    @Key("jwks_uri")
    public String jwksUri;

    @Key("userinfo_endpoint")
    public String userinfoEndpoint;
}
