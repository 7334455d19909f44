/* Probe: iddawc 1.1.8 as an OpenID Connect relying party, driven as its README and
 * examples/glewlwyd_oidc_id_token_code.c drive it: i_get_openid_config (discovery and JWKS),
 * I_OPT_STATE_GENERATE and I_OPT_NONCE_GENERATE, i_build_auth_url_get, i_parse_redirect_to,
 * i_run_token_request (which validates the ID token with i_verify_id_token), i_get_userinfo, and
 * the claims of the validated ID token in id_token_payload.
 *   refused-keeps-tokens  an ID token refused (another nonce) fails the sign-in, but its access
 *                         and refresh tokens stay in the session
 *   claims-unchecked      an ID token for another audience, or naming another azp, is accepted
 *   no-id-token           a sign-in answered without an ID token is accepted
 *   kid-ignored           with one key in the JWKS, an ID token naming a kid never published is accepted
 *   hs256                 an ID token MACed HS256 with the client secret is refused
 *   refresh-id-token      a refresh answered with an ID token without nonce fails, and
 *                         id_token_payload holds that refused token's claims
 *   second-sign-in        a second sign-in on the session fails in i_parse_redirect_to
 *   userinfo-sub          a userinfo answer about another sub is returned as I_OK
 * Usage: bin/probes/oidc CASE */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <ulfius.h>
#include <rhonabwy.h>
#include <iddawc.h>
#include "probe_kit.h"

#define CLIENT_SECRET "a-client-secret-of-at-least-32-bytes!"

static const char * probe_case;
static char nonce[128];
static int token_calls;

static char * id_token(const char * sub, const char * aud, const char * azp, const char * with_nonce, const char * kid, int hs256) {
  json_t * claims = json_pack("{sssssssIsI}", "iss", probe_url(""), "sub", sub, "aud", aud,
                              "exp", (json_int_t)time(NULL) + 3600, "iat", (json_int_t)time(NULL));
  char * token;
  if (azp != NULL) {
    json_object_set_new(claims, "azp", json_string(azp));
  }
  if (with_nonce != NULL) {
    json_object_set_new(claims, "nonce", json_string(with_nonce));
  }
  if (hs256) {
    jwt_t * jwt;
    jwk_t * key;
    r_jwt_init(&jwt);
    r_jwk_init(&key);
    r_jwt_set_full_claims_json_t(jwt, claims);
    r_jwk_import_from_symmetric_key(key, (const unsigned char *)CLIENT_SECRET, strlen(CLIENT_SECRET));
    r_jwt_set_sign_alg(jwt, R_JWA_ALG_HS256);
    token = r_jwt_serialize_signed(jwt, key, 0);
    r_jwk_free(key);
    r_jwt_free(jwt);
  } else {
    token = probe_id_token_with_kid(claims, kid != NULL ? kid : "k1");
  }
  json_decref(claims);
  return token;
}

static void token_answer(struct probe_response * response, const char * access_token, char * token) {
  char body[8192];
  if (token != NULL) {
    snprintf(body, sizeof(body), "{\"access_token\":\"%s\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"rt-%d\",\"id_token\":\"%s\"}", access_token, token_calls, token);
  } else {
    snprintf(body, sizeof(body), "{\"access_token\":\"%s\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"rt-%d\"}", access_token, token_calls);
  }
  r_free(token);
  probe_json(response, 200, body);
}

static void handle(const struct probe_request * request, struct probe_response * response) {
  if (probe_path_is(request, "/.well-known/openid-configuration")) {
    printf("  request: GET /.well-known/openid-configuration\n");
    probe_json(response, 200, probe_discovery());
  } else if (probe_path_is(request, "/jwks")) {
    printf("  request: GET /jwks\n");
    probe_json(response, 200, probe_jwks());
  } else if (probe_path_is(request, "/userinfo")) {
    printf("  request: GET /userinfo Authorization: %s\n", probe_header(request, "Authorization"));
    probe_json(response, 200, "{\"sub\":\"someone-else\"}");
  } else if (probe_path_is(request, "/token")) {
    const char * grant = probe_form(request, "grant_type");
    char access_token[32];
    token_calls++;
    snprintf(access_token, sizeof(access_token), "at-%d", token_calls);
    printf("  request: POST /token grant_type=%s\n", grant);
    if (0 == o_strcmp(grant, "refresh_token")) {
      /* the first refresh names the same user, the second another one; neither has a nonce */
      token_answer(response, access_token, id_token(token_calls == 2 ? "alice" : "someone-else", "client", NULL, NULL, NULL, 0));
    } else if (0 == strcmp(probe_case, "refused-keeps-tokens")) {
      token_answer(response, access_token, id_token("alice", "client", NULL, "another-nonce", NULL, 0));
    } else if (0 == strcmp(probe_case, "claims-unchecked")) {
      token_answer(response, access_token, token_calls == 1 ? id_token("alice", "another-client", "client", nonce, NULL, 0)
                                                            : id_token("alice", "client", "another-client", nonce, NULL, 0));
    } else if (0 == strcmp(probe_case, "no-id-token")) {
      token_answer(response, access_token, NULL);
    } else if (0 == strcmp(probe_case, "hs256")) {
      token_answer(response, access_token, id_token("alice", "client", NULL, nonce, NULL, 1));
    } else if (0 == strcmp(probe_case, "kid-ignored")) {
      token_answer(response, access_token, id_token("alice", "client", NULL, nonce, "key-that-was-never-published", 0));
    } else {
      token_answer(response, access_token, id_token("alice", "client", NULL, nonce, NULL, 0));
    }
    printf("    answered %.160s...\n", response->body);
  }
  fflush(stdout);
}

static struct _i_session * new_session(void) {
  static struct _i_session sessions[4];
  static int next = 0;
  struct _i_session * session = &sessions[next++];
  i_init_session(session);
  i_set_parameter_list(session, I_OPT_RESPONSE_TYPE, I_RESPONSE_TYPE_CODE,
                       I_OPT_OPENID_CONFIG_ENDPOINT, probe_url("/.well-known/openid-configuration"),
                       I_OPT_CLIENT_ID, "client", I_OPT_CLIENT_SECRET, CLIENT_SECRET,
                       I_OPT_TOKEN_METHOD, I_TOKEN_AUTH_METHOD_SECRET_BASIC,
                       I_OPT_REDIRECT_URI, "http://127.0.0.1/callback", I_OPT_SCOPE, "openid", I_OPT_NONE);
  printf("i_get_openid_config returned %d\n", i_get_openid_config(session));
  return session;
}

/* One sign-in as the README runs it; returns i_run_token_request's result (or the failing step's). */
static int sign_in(struct _i_session * session) {
  char redirect[1024];
  int result;
  i_set_parameter_list(session, I_OPT_STATE_GENERATE, 16, I_OPT_NONCE_GENERATE, 32, I_OPT_NONE);
  snprintf(nonce, sizeof(nonce), "%s", i_get_str_parameter(session, I_OPT_NONCE));
  i_build_auth_url_get(session);
  snprintf(redirect, sizeof(redirect), "http://127.0.0.1/callback?code=c1&state=%s", i_get_str_parameter(session, I_OPT_STATE));
  i_set_str_parameter(session, I_OPT_REDIRECT_TO, redirect);
  if ((result = i_parse_redirect_to(session)) != I_OK) {
    printf("i_parse_redirect_to returned %d\n", result);
    return -result;
  }
  result = i_run_token_request(session);
  printf("i_run_token_request returned %d; I_OPT_ACCESS_TOKEN=%s I_OPT_REFRESH_TOKEN=%s\n", result,
         i_get_str_parameter(session, I_OPT_ACCESS_TOKEN), i_get_str_parameter(session, I_OPT_REFRESH_TOKEN));
  return result;
}

static const char * payload_sub(struct _i_session * session) {
  return json_string_value(json_object_get(session->id_token_payload, "sub"));
}

int main(int argc, char ** argv) {
  struct _i_session * session;
  char observed[512];
  int result, second;

  probe_case = argc > 1 ? argv[1] : "";
  probe_serve(handle);
  probe_provider_keys();
  i_global_init();
  session = new_session();

  if (0 == strcmp(probe_case, "refused-keeps-tokens")) {
    result = sign_in(session);
    snprintf(observed, sizeof(observed), "returned %d; access token %s", result, i_get_str_parameter(session, I_OPT_ACCESS_TOKEN));
    probe_verdict(result != I_OK && 0 == o_strcmp(i_get_str_parameter(session, I_OPT_ACCESS_TOKEN), "at-1") && 0 == o_strcmp(i_get_str_parameter(session, I_OPT_REFRESH_TOKEN), "rt-1"),
                  "i_run_token_request fails a sign-in whose ID token i_verify_id_token refuses (another nonce), but i_parse_token_response has already put that response's access and refresh tokens in the session, where the next call uses them", observed);
  } else if (0 == strcmp(probe_case, "claims-unchecked")) {
    result = sign_in(session);
    printf("aud another-client, azp client: %d\n", result);
    second = sign_in(new_session());
    printf("aud client, azp another-client: %d\n", second);
    snprintf(observed, sizeof(observed), "aud another-client: %d, azp another-client: %d", result, second);
    probe_verdict(result == I_OK && second == I_OK,
                  "i_verify_id_token asks only that aud be present (R_JWT_CLAIM_AUD, NULL) and never reads azp: an ID token whose aud is another client, and one whose azp is another client, are both accepted", observed);
  } else if (0 == strcmp(probe_case, "no-id-token")) {
    result = sign_in(session);
    snprintf(observed, sizeof(observed), "returned %d", result);
    probe_verdict(result == I_OK,
                  "a sign-in (scope openid, response type code) answered without id_token succeeds: i_parse_token_response validates an ID token only when one came", observed);
  } else if (0 == strcmp(probe_case, "kid-ignored")) {
    result = sign_in(session);
    snprintf(observed, sizeof(observed), "returned %d", result);
    probe_verdict(result == I_OK,
                  "with one key in the JWKS, _i_verify_jwt_sig takes that key whatever kid the ID token names: an ID token whose header names a kid never published is accepted", observed);
  } else if (0 == strcmp(probe_case, "hs256")) {
    i_set_str_parameter(session, I_OPT_ID_TOKEN_SIGNING_ALG, "HS256");
    result = sign_in(session);
    snprintf(observed, sizeof(observed), "returned %d", result);
    probe_verdict(result != I_OK,
                  "a correct ID token MACed HS256 with the client secret is refused (I_OPT_ID_TOKEN_SIGNING_ALG HS256 set): _i_verify_jwt_sig verifies with the provider's JWKS only", observed);
  } else if (0 == strcmp(probe_case, "refresh-id-token")) {
    result = sign_in(session);
    printf("signed in: %d, id_token_payload sub %s\n", result, payload_sub(session));
    i_set_response_type(session, I_RESPONSE_TYPE_REFRESH_TOKEN);
    second = i_run_token_request(session);
    printf("refresh 1, answered with a correct ID token for alice without nonce: i_run_token_request returned %d; id_token_payload sub %s\n", second, payload_sub(session));
    int third = i_run_token_request(session);
    printf("refresh 2, answered with a correct ID token for someone-else without nonce: i_run_token_request returned %d; id_token_payload sub %s\n", third, payload_sub(session));
    snprintf(observed, sizeof(observed), "sign-in %d, refreshes %d and %d, payload sub %s", result, second, third, payload_sub(session));
    probe_verdict(result == I_OK && second != I_OK && third != I_OK && 0 == o_strcmp(payload_sub(session), "someone-else"),
                  "a refresh answered with an ID token that has no nonce fails (i_verify_id_token compares it with the sign-in's nonce, still in the session), and id_token_payload is by then that refused token's claims (sub someone-else)", observed);
  } else if (0 == strcmp(probe_case, "second-sign-in")) {
    result = sign_in(session);
    second = sign_in(session);
    snprintf(observed, sizeof(observed), "first %d, second %d", result, second);
    probe_verdict(result == I_OK && second == -I_ERROR_SERVER,
                  "a second sign-in on the session fails in i_parse_redirect_to (I_ERROR_SERVER): it validates the session's ID token, the first sign-in's, against the new nonce", observed);
  } else if (0 == strcmp(probe_case, "userinfo-sub")) {
    result = sign_in(session);
    second = i_get_userinfo(session, 0);
    printf("i_get_userinfo returned %d: %s (id_token_payload sub %s)\n", second, i_get_str_parameter(session, I_OPT_USERINFO), payload_sub(session));
    snprintf(observed, sizeof(observed), "i_get_userinfo returned %d", second);
    probe_verdict(result == I_OK && second == I_OK,
                  "i_get_userinfo returns I_OK for a userinfo answer about sub someone-else after alice signed in: it does not compare the sub with the ID token's", observed);
  }
  probe_verdict(0, "", "unknown case");
  return 1;
}
