/* Probe: iddawc 1.1.8's authorization code flow, run as its README runs it (I_OPT_STATE_GENERATE,
 * PKCE S256 with I_OPT_PKCE_CODE_VERIFIER_GENERATE, i_build_auth_url_get, then I_OPT_REDIRECT_TO
 * and i_parse_redirect_to, then i_run_token_request), and with i_run_par_request first.
 *   par-without-pkce  the pushed request carries no code_challenge, the token request the verifier
 *   iss-omitted       a redirect without iss is accepted; one with another iss is refused
 *   state-length      the README's I_OPT_STATE_GENERATE, 16 gives a 16-character state
 * Usage: bin/probes/authorization CASE */
#include <stdio.h>
#include <string.h>
#include <ulfius.h>
#include <iddawc.h>
#include "probe_kit.h"

static int par_had_challenge = -1, token_had_verifier = -1;

static void handle(const struct probe_request * request, struct probe_response * response) {
  if (probe_path_is(request, "/par")) {
    printf("  request: POST /par response_type=%s state=%s code_challenge=%s code_challenge_method=%s\n",
           probe_form(request, "response_type"), probe_form(request, "state"),
           probe_form(request, "code_challenge") ? probe_form(request, "code_challenge") : "(absent)",
           probe_form(request, "code_challenge_method") ? probe_form(request, "code_challenge_method") : "(absent)");
    par_had_challenge = probe_form(request, "code_challenge") != NULL;
    probe_json(response, 201, "{\"request_uri\":\"urn:ietf:params:oauth:request_uri:r1\",\"expires_in\":60}");
  } else if (probe_path_is(request, "/token")) {
    printf("  request: POST /token grant_type=%s code=%s code_verifier=%s\n", probe_form(request, "grant_type"),
           probe_form(request, "code"), probe_form(request, "code_verifier") ? probe_form(request, "code_verifier") : "(absent)");
    token_had_verifier = probe_form(request, "code_verifier") != NULL;
    probe_json(response, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"code_verifier given but the authorization request had no code_challenge\"}");
  }
  fflush(stdout);
}

static void configure(struct _i_session * session) {
  i_set_parameter_list(session, I_OPT_RESPONSE_TYPE, I_RESPONSE_TYPE_CODE,
                       I_OPT_CLIENT_ID, "client", I_OPT_CLIENT_SECRET, "secret",
                       I_OPT_TOKEN_METHOD, I_TOKEN_AUTH_METHOD_SECRET_BASIC,
                       I_OPT_REDIRECT_URI, "http://127.0.0.1/callback",
                       I_OPT_AUTH_ENDPOINT, probe_url("/authorize"), I_OPT_TOKEN_ENDPOINT, probe_url("/token"),
                       I_OPT_PUSHED_AUTH_REQ_ENDPOINT, probe_url("/par"), I_OPT_ISSUER, probe_url(""),
                       I_OPT_STATE_GENERATE, 16,
                       I_OPT_PKCE_METHOD, I_PKCE_METHOD_S256, I_OPT_PKCE_CODE_VERIFIER_GENERATE, 43,
                       I_OPT_NONE);
}

static int parse(struct _i_session * session, const char * query) {
  char redirect[1024];
  int result;
  snprintf(redirect, sizeof(redirect), "http://127.0.0.1/callback?%s", query);
  i_set_str_parameter(session, I_OPT_REDIRECT_TO, redirect);
  result = i_parse_redirect_to(session);
  printf("i_parse_redirect_to(%s) returned %d\n", redirect, result);
  return result;
}

int main(int argc, char ** argv) {
  const char * probe_case = argc > 1 ? argv[1] : "";
  struct _i_session session;
  char observed[512], query[512];
  int result, with_other_iss;

  probe_serve(handle);
  i_global_init();
  i_init_session(&session);
  configure(&session);
  if (0 == strcmp(probe_case, "par-without-pkce")) {
    result = i_run_par_request(&session);
    printf("i_run_par_request returned %d\n", result);
    result = i_build_auth_url_get(&session);
    printf("i_build_auth_url_get returned %d: %s\n", result, i_get_str_parameter(&session, I_OPT_REDIRECT_TO));
    snprintf(query, sizeof(query), "code=c1&state=%s", i_get_str_parameter(&session, I_OPT_STATE));
    parse(&session, query);
    result = i_run_token_request(&session);
    printf("i_run_token_request returned %d\n", result);
    snprintf(observed, sizeof(observed), "PAR code_challenge %s, token code_verifier %s",
             par_had_challenge ? "present" : "absent", token_had_verifier ? "present" : "absent");
    probe_verdict(par_had_challenge == 0 && token_had_verifier == 1,
                  "i_run_par_request pushes no code_challenge (only i_build_auth_url_get adds PKCE, to a URL it then replaces with the request_uri), while i_run_token_request sends the code_verifier: the provider refuses the code", observed);
  } else if (0 == strcmp(probe_case, "iss-omitted")) {
    snprintf(query, sizeof(query), "code=c1&state=%s", i_get_str_parameter(&session, I_OPT_STATE));
    result = parse(&session, query);
    snprintf(query, sizeof(query), "code=c1&state=%s&iss=https%%3A%%2F%%2Fattacker.example", i_get_str_parameter(&session, I_OPT_STATE));
    with_other_iss = parse(&session, query);
    snprintf(observed, sizeof(observed), "without iss %d, with another iss %d", result, with_other_iss);
    probe_verdict(result == I_OK && with_other_iss != I_OK,
                  "i_parse_redirect_to compares iss only when the redirect carries one: a redirect without iss is accepted (I_OK) though the issuer is set, one with another iss refused", observed);
  } else if (0 == strcmp(probe_case, "state-length")) {
    i_build_auth_url_get(&session);
    printf("i_build_auth_url_get: %s\n", i_get_str_parameter(&session, I_OPT_REDIRECT_TO));
    snprintf(observed, sizeof(observed), "state %s", i_get_str_parameter(&session, I_OPT_STATE));
    probe_verdict(strlen(i_get_str_parameter(&session, I_OPT_STATE)) == 16,
                  "the state of iddawc's README example (I_OPT_STATE_GENERATE, 16) is 16 characters of [A-Za-z0-9], under the 22 the scenario asks", observed);
  }
  probe_verdict(0, "", "unknown case");
  return 1;
}
