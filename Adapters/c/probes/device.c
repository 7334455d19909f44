/* Probe: iddawc 1.1.8's device authorization grant as API.md runs it: i_run_device_auth_request,
 * then i_run_token_request "every few seconds until you get a success or a definitive error".
 * Claim: the library keeps no polling schedule: after slow_down, and after a 503, the interval it
 * holds (I_OPT_DEVICE_AUTH_INTERVAL) is still the one the provider first gave.
 * Usage: bin/probes/device */
#include <stdio.h>
#include <string.h>
#include <iddawc.h>
#include "probe_kit.h"

static int polls;

static void handle(const struct probe_request * request, struct probe_response * response) {
  if (probe_path_is(request, "/device_authorization")) {
    printf("  request: POST /device_authorization\n");
    probe_json(response, 200, "{\"device_code\":\"dc-1\",\"user_code\":\"WDJB-MJH1\",\"verification_uri\":\"https://example.test/device\",\"expires_in\":600,\"interval\":5}");
  } else if (probe_path_is(request, "/token")) {
    polls++;
    printf("  request: POST /token grant_type=%s\n", probe_form(request, "grant_type"));
    if (polls == 1) {
      probe_json(response, 400, "{\"error\":\"slow_down\"}");
    } else {
      probe_json(response, 503, "{}");
    }
    printf("    answered %d %s\n", response->status, response->body);
  }
  fflush(stdout);
}

int main(void) {
  struct _i_session session;
  char observed[256];
  unsigned int after_slow_down, after_503;
  int result;

  probe_serve(handle);
  i_global_init();
  i_init_session(&session);
  i_set_parameter_list(&session, I_OPT_RESPONSE_TYPE, I_RESPONSE_TYPE_DEVICE_CODE,
                       I_OPT_DEVICE_AUTHORIZATION_ENDPOINT, probe_url("/device_authorization"),
                       I_OPT_TOKEN_ENDPOINT, probe_url("/token"), I_OPT_CLIENT_ID, "client", I_OPT_CLIENT_SECRET, "secret",
                       I_OPT_TOKEN_METHOD, I_TOKEN_AUTH_METHOD_SECRET_BASIC, I_OPT_NONE);
  result = i_run_device_auth_request(&session);
  printf("i_run_device_auth_request returned %d: user code %s, interval %u\n", result,
         i_get_str_parameter(&session, I_OPT_DEVICE_AUTH_USER_CODE), i_get_int_parameter(&session, I_OPT_DEVICE_AUTH_INTERVAL));
  result = i_run_token_request(&session);
  after_slow_down = i_get_int_parameter(&session, I_OPT_DEVICE_AUTH_INTERVAL);
  printf("poll 1: i_run_token_request returned %d, I_OPT_ERROR %s, interval %u\n", result, i_get_str_parameter(&session, I_OPT_ERROR), after_slow_down);
  result = i_run_token_request(&session);
  after_503 = i_get_int_parameter(&session, I_OPT_DEVICE_AUTH_INTERVAL);
  printf("poll 2: i_run_token_request returned %d, interval %u\n", result, after_503);
  snprintf(observed, sizeof(observed), "interval %u after slow_down, %u after a 503", after_slow_down, after_503);
  probe_verdict(after_slow_down == 5 && after_503 == 5,
                "the library keeps no polling schedule: after slow_down and after a 503, I_OPT_DEVICE_AUTH_INTERVAL is still the provider's 5 seconds, and when to poll is the application's (API.md: \"every few seconds\")", observed);
  return 1;
}
