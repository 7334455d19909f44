/* Probe: how iddawc 1.1.8 keeps and refreshes tokens, driven as an application drives it
 * (i_run_token_request for the grant, i_perform_resource_service_request with refresh_if_expired
 * set for the resource). One case per claim:
 *   expiry              the token response's expires_in never becomes I_OPT_EXPIRES_AT, so every
 *                       call refreshes first
 *   client-credentials  a session without a refresh token never reaches the resource
 *   invalid-grant-kept  a refresh token refused invalid_grant is kept and sent again
 *   error-body-200      a 200 whose body is an RFC 6749 §5.2 error leaves no code in the session
 *   retry-after         a 503 with Retry-After is followed by a refresh at the next call
 *   token-type          any token_type is accepted and the token goes out as Bearer
 *   expiry-on-refresh   a refresh response's expires_in (ordinary or odd) never becomes
 *                       I_OPT_EXPIRES_AT either, so every call after a refresh refreshes again
 *   token-type-on-refresh  a refresh response's mac, N_A or DPoP token_type is accepted and the
 *                       new token goes out as Bearer
 * Usage: bin/probes/refresh CASE */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <ulfius.h>
#include <iddawc.h>
#include "probe_kit.h"

static const char * probe_case;
static int refreshes, resource_calls;
static char last_refresh_token[256];
static char last_authorization[256];
/* What the refresh response states: token_type as a JSON string, expires_in as a JSON literal. */
static const char * refresh_token_type = "\"Bearer\"";
static const char * refresh_expires_in = "3600";

static void handle(const struct probe_request * request, struct probe_response * response) {
  const char * grant = probe_form(request, "grant_type");
  char grant_copy[64];
  snprintf(grant_copy, sizeof(grant_copy), "%s", grant != NULL ? grant : "");
  if (probe_path_is(request, "/token")) {
    const char * refresh_token = probe_form(request, "refresh_token");
    printf("  request: POST /token grant_type=%s%s%s\n", grant_copy, refresh_token ? " refresh_token=" : "", refresh_token ? refresh_token : "");
    if (0 == strcmp(grant_copy, "refresh_token")) {
      refreshes++;
      snprintf(last_refresh_token, sizeof(last_refresh_token), "%s", refresh_token ? refresh_token : "");
      if (0 == strcmp(probe_case, "invalid-grant-kept")) {
        probe_json(response, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"refresh token revoked\"}");
      } else if (0 == strcmp(probe_case, "error-body-200")) {
        probe_json(response, 200, "{\"error\":\"invalid_grant\"}");
      } else if (0 == strcmp(probe_case, "retry-after") && refreshes == 1) {
        probe_json(response, 503, "{}");
        strcpy(response->headers, "Retry-After: 3600\r\n");
      } else {
        char body[512];
        snprintf(body, sizeof(body), "{\"access_token\":\"at-%d\",\"token_type\":%s,\"expires_in\":%s}",
                 refreshes + 1, refresh_token_type, refresh_expires_in);
        probe_json(response, 200, body);
      }
    } else if (0 == strcmp(grant_copy, "client_credentials")) {
      probe_json(response, 200, "{\"access_token\":\"at-1\",\"token_type\":\"Bearer\",\"expires_in\":3600}");
    } else {
      probe_json(response, 200, 0 == strcmp(probe_case, "token-type")
                 ? "{\"access_token\":\"at-1\",\"token_type\":\"mac\",\"expires_in\":3600,\"refresh_token\":\"rt-1\"}"
                 : "{\"access_token\":\"at-1\",\"token_type\":\"Bearer\",\"expires_in\":3600,\"refresh_token\":\"rt-1\"}");
    }
    printf("    answered %d %s\n", response->status, response->body);
  } else if (probe_path_is(request, "/resource")) {
    const char * authorization = probe_header(request, "Authorization");
    resource_calls++;
    snprintf(last_authorization, sizeof(last_authorization), "%s", authorization ? authorization : "");
    printf("  request: GET /resource Authorization: %s\n", authorization ? authorization : "(none)");
    probe_json(response, 200, "{\"ok\":true}");
  }
  fflush(stdout);
}

static int call_resource(struct _i_session * session, const char * label) {
  struct _u_request request;
  struct _u_response response;
  int result;
  ulfius_init_request(&request);
  ulfius_init_response(&response);
  ulfius_set_request_properties(&request, U_OPT_HTTP_VERB, "GET", U_OPT_HTTP_URL, probe_url("/resource"), U_OPT_NONE);
  result = i_perform_resource_service_request(session, &request, &response, 1, I_BEARER_TYPE_HEADER, 0, 0);
  printf("%s: i_perform_resource_service_request(refresh_if_expired=1) returned %d, resource status %ld; I_OPT_EXPIRES_AT=%u, I_OPT_REFRESH_TOKEN=%s, I_OPT_ERROR=%s\n",
         label, result, result == I_OK ? response.status : 0L, i_get_int_parameter(session, I_OPT_EXPIRES_AT),
         i_get_str_parameter(session, I_OPT_REFRESH_TOKEN) ? i_get_str_parameter(session, I_OPT_REFRESH_TOKEN) : "(null)",
         i_get_str_parameter(session, I_OPT_ERROR) ? i_get_str_parameter(session, I_OPT_ERROR) : "(null)");
  ulfius_clean_request(&request);
  ulfius_clean_response(&response);
  return result;
}

/* A new session signed in with the password grant (the sign-in answers Bearer, 3600 s, rt-1,
 * unless the case is token-type), as an application configures one. */
static int sign_in(struct _i_session * session) {
  int result;
  i_init_session(session);
  i_set_parameter_list(session, I_OPT_TOKEN_ENDPOINT, probe_url("/token"),
                       I_OPT_CLIENT_ID, "client", I_OPT_CLIENT_SECRET, "secret",
                       I_OPT_TOKEN_METHOD, I_TOKEN_AUTH_METHOD_SECRET_BASIC,
                       I_OPT_RESPONSE_TYPE, 0 == strcmp(probe_case, "client-credentials") ? I_RESPONSE_TYPE_CLIENT_CREDENTIALS : I_RESPONSE_TYPE_PASSWORD,
                       I_OPT_USERNAME, "alice", I_OPT_USER_PASSWORD, "wonderland", I_OPT_NONE);
  result = i_run_token_request(session);
  printf("i_run_token_request returned %d: I_OPT_ACCESS_TOKEN=%s I_OPT_TOKEN_TYPE=%s I_OPT_EXPIRES_IN=%u I_OPT_EXPIRES_AT=%u\n", result,
         i_get_str_parameter(session, I_OPT_ACCESS_TOKEN), i_get_str_parameter(session, I_OPT_TOKEN_TYPE),
         i_get_int_parameter(session, I_OPT_EXPIRES_IN), i_get_int_parameter(session, I_OPT_EXPIRES_AT));
  return result;
}

/* Signed in, the session is given an expiry that has just passed, as a restored session whose
 * token died carries one (i_import_session_json_t reads expires_at), so that the first call's
 * refresh is due by the library's own rule; what the refresh response says must decide the rest. */
static void expire_now(struct _i_session * session) {
  i_set_int_parameter(session, I_OPT_EXPIRES_AT, (unsigned int)(time(NULL) - 1));
  printf("the token has expired: I_OPT_EXPIRES_AT=%u (now - 1)\n", i_get_int_parameter(session, I_OPT_EXPIRES_AT));
}

int main(int argc, char ** argv) {
  struct _i_session session;
  char observed[1024];
  int result;

  probe_case = argc > 1 ? argv[1] : "expiry";
  probe_serve(handle);
  i_global_init();
  if (0 == strcmp(probe_case, "token-type")) {
    refresh_token_type = "\"mac\"";
  }

  if (0 == strcmp(probe_case, "expiry-on-refresh")) {
    /* The six lifetimes of refresh/odd-expires-in-on-refresh, then an ordinary 3600 for contrast. */
    static const char * lifetimes[] = {"0", "-60", "1099511627776", "\"3600\"", "7199.5", "\"soon\"", "3600"};
    int all_hold = 1;
    size_t used = 0;
    for (size_t i = 0; i < sizeof(lifetimes) / sizeof(lifetimes[0]); i++) {
      unsigned int expired_at;
      refresh_expires_in = lifetimes[i];
      refreshes = 0;
      printf("-- every refresh answered expires_in %s\n", refresh_expires_in);
      sign_in(&session);
      expire_now(&session);
      expired_at = i_get_int_parameter(&session, I_OPT_EXPIRES_AT);
      call_resource(&session, "call 1 (refresh due)");
      call_resource(&session, "call 2, at once");
      call_resource(&session, "call 3, at once");
      all_hold = all_hold && refreshes == 3 && i_get_int_parameter(&session, I_OPT_EXPIRES_AT) == expired_at;
      used += (size_t)snprintf(observed + used, sizeof(observed) - used, "%sexpires_in %s: %d refreshes for 3 calls, I_OPT_EXPIRES_AT %s",
                               i ? "; " : "", refresh_expires_in, refreshes,
                               i_get_int_parameter(&session, I_OPT_EXPIRES_AT) == expired_at ? "unchanged" : "changed");
      i_clean_session(&session);
    }
    probe_verdict(all_hold,
                  "a refresh response's expires_in (0, -60, 1099511627776, \"3600\", 7199.5, \"soon\", and 3600 alike) never becomes I_OPT_EXPIRES_AT, which keeps the expired value, so i_perform_resource_service_request with refresh_if_expired refreshes again before every call after a refresh (3 refreshes for 3 calls)", observed);
  } else if (0 == strcmp(probe_case, "token-type-on-refresh")) {
    static const char * types[] = {"\"mac\"", "\"N_A\"", "\"DPoP\""};
    int all_hold = 1;
    size_t used = 0;
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
      char expected[64];
      refresh_token_type = types[i];
      refreshes = 0;
      printf("-- the refresh answered token_type %s\n", refresh_token_type);
      result = sign_in(&session);
      expire_now(&session);
      result = call_resource(&session, "call 1 (refresh due)");
      snprintf(expected, sizeof(expected), "Bearer at-%d", refreshes + 1);
      all_hold = all_hold && result == I_OK && refreshes == 1 && 0 == strcmp(last_authorization, expected);
      used += (size_t)snprintf(observed + used, sizeof(observed) - used, "%stoken_type %s: returned %d, I_OPT_TOKEN_TYPE %s, resource got Authorization: %s",
                               i ? "; " : "", refresh_token_type, result, i_get_str_parameter(&session, I_OPT_TOKEN_TYPE), last_authorization);
      i_clean_session(&session);
    }
    probe_verdict(all_hold,
                  "a refresh response with token_type mac, N_A or DPoP is accepted (I_OK, stored in I_OPT_TOKEN_TYPE) and i_perform_resource_service_request sends the new token to the resource as Authorization: Bearer", observed);
  }

  result = sign_in(&session);

  if (0 == strcmp(probe_case, "expiry")) {
    call_resource(&session, "call 1");
    call_resource(&session, "call 2");
    snprintf(observed, sizeof(observed), "I_OPT_EXPIRES_AT=%u and %d refreshes for 2 calls within the token's first second",
             i_get_int_parameter(&session, I_OPT_EXPIRES_AT), refreshes);
    probe_verdict(i_get_int_parameter(&session, I_OPT_EXPIRES_AT) == 0 && i_get_int_parameter(&session, I_OPT_EXPIRES_IN) == 3600 && refreshes == 2,
                  "i_parse_token_response keeps expires_in (3600) in I_OPT_EXPIRES_IN but leaves I_OPT_EXPIRES_AT at 0, so i_perform_resource_service_request with refresh_if_expired refreshes before every call (2 refreshes for 2 calls of a fresh 1-hour token)", observed);
  } else if (0 == strcmp(probe_case, "client-credentials")) {
    result = call_resource(&session, "call 1");
    snprintf(observed, sizeof(observed), "returned %d, %d resource calls", result, resource_calls);
    probe_verdict(result == I_ERROR_PARAM && resource_calls == 0 && refreshes == 0,
                  "with a client_credentials token (no refresh token), i_perform_resource_service_request with refresh_if_expired tries to refresh (I_OPT_EXPIRES_AT is 0), cannot, and returns I_ERROR_PARAM without calling the resource", observed);
  } else if (0 == strcmp(probe_case, "invalid-grant-kept")) {
    call_resource(&session, "call 1");
    call_resource(&session, "call 2");
    snprintf(observed, sizeof(observed), "%d refreshes, the last with %s; session refresh token %s", refreshes, last_refresh_token,
             i_get_str_parameter(&session, I_OPT_REFRESH_TOKEN));
    probe_verdict(refreshes == 2 && 0 == strcmp(last_refresh_token, "rt-1") && 0 == o_strcmp(i_get_str_parameter(&session, I_OPT_REFRESH_TOKEN), "rt-1"),
                  "a refresh answered 400 invalid_grant leaves the refused refresh token in the session (I_OPT_REFRESH_TOKEN rt-1), and the next call sends it again", observed);
  } else if (0 == strcmp(probe_case, "error-body-200")) {
    i_set_response_type(&session, I_RESPONSE_TYPE_REFRESH_TOKEN);
    result = i_run_token_request(&session);
    printf("refresh: i_run_token_request returned %d, I_OPT_ERROR=%s\n", result, i_get_str_parameter(&session, I_OPT_ERROR) ? i_get_str_parameter(&session, I_OPT_ERROR) : "(null)");
    snprintf(observed, sizeof(observed), "returned %d, I_OPT_ERROR %s", result, i_get_str_parameter(&session, I_OPT_ERROR) ? i_get_str_parameter(&session, I_OPT_ERROR) : "(null)");
    probe_verdict(result == I_ERROR_PARAM && i_get_str_parameter(&session, I_OPT_ERROR) == NULL,
                  "a 200 answer whose body is {\"error\":\"invalid_grant\"} fails i_run_token_request with I_ERROR_PARAM (\"required response parameters missing\") and leaves I_OPT_ERROR unset: the code is not surfaced", observed);
  } else if (0 == strcmp(probe_case, "retry-after")) {
    call_resource(&session, "call 1 (refresh answered 503, Retry-After: 3600)");
    call_resource(&session, "call 2, at once");
    snprintf(observed, sizeof(observed), "%d refreshes", refreshes);
    probe_verdict(refreshes == 2,
                  "after a refresh answered 503 with Retry-After: 3600, the next call refreshes at once (the library reads no Retry-After)", observed);
  } else if (0 == strcmp(probe_case, "token-type")) {
    call_resource(&session, "call 1");
    snprintf(observed, sizeof(observed), "login returned %d, token_type %s", result, i_get_str_parameter(&session, I_OPT_TOKEN_TYPE));
    probe_verdict(result == I_OK && resource_calls == 1 && 0 == o_strcmp(i_get_str_parameter(&session, I_OPT_TOKEN_TYPE), "mac"),
                  "a token response with token_type \"mac\" is accepted (I_OK, I_OPT_TOKEN_TYPE mac) and i_perform_resource_service_request sends the token as Authorization: Bearer", observed);
  }
  probe_verdict(0, "", "unknown case");
  return 1;
}
