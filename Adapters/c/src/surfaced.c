/* What iddawc tells the application after a failed call, reported as the protocol's error
 * (docs/adapter-protocol/writing-an-adapter.md, "What an adapter reports").
 *
 * iddawc returns an int (I_ERROR, I_ERROR_PARAM, I_ERROR_UNAUTHORIZED, I_ERROR_SERVER, API.md
 * "Return values") and leaves the provider's RFC 6749 §5.2 answer in the session: I_OPT_ERROR,
 * I_OPT_ERROR_DESCRIPTION (iddawc.c _i_parse_error_response). The HTTP status it failed on is
 * in the session's saved_response when the application sets I_OPT_SAVE_HTTP_REQUEST_RESPONSE
 * (iddawc.h: "Save HTTP request and response"), which this application does. */
#include <stdio.h>
#include <string.h>
#include <ulfius.h>
#include "application.h"
#include "protocol.h"

static const char * result_name(int result) {
  switch (result) {
    case I_OK: return "I_OK";
    case I_ERROR: return "I_ERROR";
    case I_ERROR_PARAM: return "I_ERROR_PARAM";
    case I_ERROR_MEMORY: return "I_ERROR_MEMORY";
    case I_ERROR_UNAUTHORIZED: return "I_ERROR_UNAUTHORIZED";
    case I_ERROR_SERVER: return "I_ERROR_SERVER";
    default: return "unknown result";
  }
}

/* The status of the last answer the library received in the call just made, or 0 when it
 * received none (before_library_call clears it: the library keeps the previous one when a
 * request fails to be sent, iddawc.c _i_send_http_request). */
long surfaced_status(struct application * app) {
  return app->session.saved_response != NULL ? app->session.saved_response->status : 0;
}

/* category: what the failure means where neither a status nor a code tells (the harness
 * derives the category from those when they do). */
json_t * surfaced_error(struct application * app, const char * call, int result, const char * category) {
  const char * code = i_get_str_parameter(&app->session, I_OPT_ERROR);
  const char * description = i_get_str_parameter(&app->session, I_OPT_ERROR_DESCRIPTION);
  long status = surfaced_status(app);
  char message[1024];

  if (result == I_ERROR && status == 0) {
    category = "transient";   /* "Error sending ... request": no answer came (refused, reset, cut) */
  } else if (result == I_ERROR_MEMORY) {
    category = "unexpected";
  }
  snprintf(message, sizeof(message), "%s returned %s%s%s%s%s%s", call, result_name(result),
           code != NULL ? ": " : "", code != NULL ? code : "",
           description != NULL ? " (" : "", description != NULL ? description : "", description != NULL ? ")" : "");
  return client_error(category, code, status, result_name(result), message);
}
