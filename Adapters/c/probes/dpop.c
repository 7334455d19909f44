/* Probe: iddawc 1.1.8's DPoP proofs, as API.md has an application use them: a client key in the
 * client JWKS named by I_OPT_DPOP_KID, I_OPT_USE_DPOP, a jti generated before the call
 * (I_OPT_TOKEN_JTI_GENERATE), i_perform_resource_service_request with use_dpop set.
 * Claim: the refresh that i_perform_resource_service_request makes first (I_OPT_EXPIRES_AT is 0)
 * and the resource request after it carry proofs with the same jti, the session's token_jti.
 * Usage: bin/probes/dpop */
#include <stdio.h>
#include <string.h>
#include <ulfius.h>
#include <rhonabwy.h>
#include <iddawc.h>
#include "probe_kit.h"

static char token_jti[128], resource_jti[128];

static void handle(const struct probe_request * request, struct probe_response * response) {
  const char * proof = probe_header(request, "DPoP");
  const char * jti = probe_jwt_claim(proof, "jti");
  char jti_copy[128];
  snprintf(jti_copy, sizeof(jti_copy), "%s", jti != NULL ? jti : "(none)");
  if (probe_path_is(request, "/token")) {
    const char * grant = probe_form(request, "grant_type");
    printf("  request: POST /token grant_type=%s DPoP proof jti=%s\n", grant, jti_copy);
    if (0 == o_strcmp(probe_form(request, "grant_type"), "refresh_token")) {
      snprintf(token_jti, sizeof(token_jti), "%s", jti_copy);
    }
    probe_json(response, 200, "{\"access_token\":\"at-1\",\"token_type\":\"DPoP\",\"expires_in\":3600,\"refresh_token\":\"rt-1\"}");
  } else if (probe_path_is(request, "/resource")) {
    const char * htu = probe_jwt_claim(proof, "htu");
    printf("  request: GET /resource Authorization: %s DPoP proof jti=%s htu=%s\n", probe_header(request, "Authorization"), jti_copy, htu);
    snprintf(resource_jti, sizeof(resource_jti), "%s", jti_copy);
    probe_json(response, 200, "{}");
  }
  fflush(stdout);
}

int main(void) {
  struct _i_session session;
  struct _u_request request;
  struct _u_response response;
  jwk_t * private_key, * public_key;
  json_t * jwks;
  char observed[512];
  int result;

  probe_serve(handle);
  i_global_init();
  i_init_session(&session);
  r_jwk_init(&private_key);
  r_jwk_init(&public_key);
  r_jwk_generate_key_pair(private_key, public_key, R_KEY_TYPE_EC, 256, "dpop");
  r_jwk_set_property_str(private_key, "alg", "ES256");
  jwks = json_pack("{s[o]}", "keys", r_jwk_export_to_json_t(private_key));
  i_set_client_jwks(&session, jwks);
  i_set_parameter_list(&session, I_OPT_TOKEN_ENDPOINT, probe_url("/token"),
                       I_OPT_CLIENT_ID, "client", I_OPT_CLIENT_SECRET, "secret",
                       I_OPT_TOKEN_METHOD, I_TOKEN_AUTH_METHOD_SECRET_BASIC,
                       I_OPT_RESPONSE_TYPE, I_RESPONSE_TYPE_PASSWORD,
                       I_OPT_USERNAME, "alice", I_OPT_USER_PASSWORD, "wonderland",
                       I_OPT_USE_DPOP, 1, I_OPT_DPOP_KID, "dpop", I_OPT_DPOP_SIGN_ALG, "ES256",
                       I_OPT_TOKEN_JTI_GENERATE, 32, I_OPT_NONE);
  result = i_run_token_request(&session);
  printf("i_run_token_request returned %d, token_type %s\n", result, i_get_str_parameter(&session, I_OPT_TOKEN_TYPE));

  i_set_int_parameter(&session, I_OPT_TOKEN_JTI_GENERATE, 32);   /* a new jti for the call */
  printf("before the call: I_OPT_TOKEN_JTI=%s\n", i_get_str_parameter(&session, I_OPT_TOKEN_JTI));
  ulfius_init_request(&request);
  ulfius_init_response(&response);
  ulfius_set_request_properties(&request, U_OPT_HTTP_VERB, "GET", U_OPT_HTTP_URL, probe_url("/resource"), U_OPT_NONE);
  result = i_perform_resource_service_request(&session, &request, &response, 1, I_BEARER_TYPE_HEADER, 1, 0);
  printf("i_perform_resource_service_request(refresh_if_expired=1, use_dpop=1) returned %d\n", result);
  snprintf(observed, sizeof(observed), "refresh proof jti %s, resource proof jti %s", token_jti, resource_jti);
  probe_verdict(token_jti[0] != '\0' && 0 == strcmp(token_jti, resource_jti),
                "one i_perform_resource_service_request call signs its refresh's DPoP proof and the resource's proof with the same jti (the session's I_OPT_TOKEN_JTI), so the resource sees a replayed jti", observed);
  return 1;
}
