/* The device authorization grant as API.md runs it: response type I_RESPONSE_TYPE_DEVICE_CODE,
 * i_run_device_auth_request, which sets the user code, the verification URIs and the interval;
 * "After that, you'll need to run i_run_token_request (see below) every few seconds until you
 * get a success or a definitive error". The library keeps no schedule of its own: the
 * application polls at the interval the library read (I_OPT_DEVICE_AUTH_INTERVAL). */
#include <string.h>
#include <ulfius.h>
#include "application.h"
#include "protocol.h"

/* RFC 8628 §3.2: 5 seconds when the provider names no interval. */
#define DEFAULT_INTERVAL 5

json_t * application_device_authorization(struct application * app) {
  struct _i_session * s = &app->session;
  const char * complete;
  int result;

  i_set_response_type(s, I_RESPONSE_TYPE_DEVICE_CODE);
  before_library_call(app);
  result = i_run_device_auth_request(s);
  persist(app);
  if (result != I_OK) {
    return answer_failure(surfaced_error(app, "i_run_device_auth_request", result, "protocol"));
  }
  app->device_polls = 0;
  complete = i_get_str_parameter(s, I_OPT_DEVICE_AUTH_VERIFICATION_URI_COMPLETE);
  return json_pack("{sbssssso}", "ok", 1,
                   "user_code", i_get_str_parameter(s, I_OPT_DEVICE_AUTH_USER_CODE) ? i_get_str_parameter(s, I_OPT_DEVICE_AUTH_USER_CODE) : "",
                   "verification_uri", i_get_str_parameter(s, I_OPT_DEVICE_AUTH_VERIFICATION_URI) ? i_get_str_parameter(s, I_OPT_DEVICE_AUTH_VERIFICATION_URI) : "",
                   "verification_uri_complete", complete != NULL ? json_string(complete) : json_null());
}

static json_t * wait_answer(struct application * app) {
  unsigned int interval = i_get_int_parameter(&app->session, I_OPT_DEVICE_AUTH_INTERVAL);
  return json_pack("{sbsI}", "ok", 1, "wait", (json_int_t)(interval > 0 ? interval : DEFAULT_INTERVAL));
}

json_t * application_device_poll(struct application * app) {
  const char * code;
  int result;

  /* The first step waits the interval before the first poll (RFC 8628 §3.4). */
  if (app->device_polls++ == 0) {
    return wait_answer(app);
  }
  result = run_token_request(app);
  persist(app);
  if (result == I_OK) {
    return answer_success(200, NULL, 0);
  }
  code = i_get_str_parameter(&app->session, I_OPT_ERROR);
  /* Not definitive: the user has not answered yet, the server asks to slow down (the library
   * changes no interval for it), or the poll failed without an answer of the grant. */
  if (0 == o_strcmp(code, "authorization_pending") || 0 == o_strcmp(code, "slow_down") ||
      (code == NULL && result == I_ERROR)) {
    return wait_answer(app);
  }
  return answer_failure(surfaced_error(app, "i_run_token_request", result, "protocol"));
}
