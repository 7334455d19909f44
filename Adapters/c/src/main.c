/* iddawc-adapter drives iddawc 1.1.8 (Debian's libiddawc-dev), the C OAuth 2 / OpenID Connect
 * client library, behind the OAuthConformance adapter protocol (docs/adapter-protocol.md): one
 * JSON message a line on stdin, one answer a line on stdout, the library's logs on stderr. See
 * iddawc.yaml for the profile and README.md for what the library was found to do.
 *
 * Time: the library reads time() itself (token expiry, ID token and DPoP claims); the profile
 * runs this program under libfaketime (faketime: true), so it has no clock code of its own. */
#include <stdio.h>
#include <string.h>
#include <yder.h>
#include <iddawc.h>
#include "application.h"
#include "protocol.h"

static const char * const capabilities[] = {
  "proactive_refresh", "authorization_code", "restart", "openid", "device_grant",
  "pushed_authorization_requests", "dpop", "private_key_jwt", "client_secret_jwt", NULL
};

static json_t * hello(json_t * message) {
  json_t * names = json_array();
  if (json_integer_value(json_object_get(message, "protocol")) != PROTOCOL_VERSION) {
    json_decref(names);
    return answer_failure(client_error("unsupported", NULL, 0, NULL, "this adapter speaks protocol 1"));
  }
  for (int i = 0; capabilities[i] != NULL; i++) {
    json_array_append_new(names, json_string(capabilities[i]));
  }
  return json_pack("{sbsisssssO}", "ok", 1, "protocol", PROTOCOL_VERSION, "name", "iddawc",
                   "version", IDDAWC_VERSION_STR, "capabilities", names);
}

static json_t * unsupported(const char * op) {
  char message[128];
  snprintf(message, sizeof(message), "%s is not implemented", op);
  return answer_failure(client_error("unsupported", NULL, 0, NULL, message));
}

static json_t * handle(struct application * app, json_t * message) {
  const char * op = json_string_value(json_object_get(message, "op"));
  char * fault = NULL;

  if (op == NULL) {
    return answer_fault("unreadable message");
  } else if (0 == strcmp(op, "hello")) {
    return hello(message);
  } else if (0 == strcmp(op, "shutdown")) {
    return answer_ok();
  } else if (0 == strcmp(op, "reset")) {
    if (!json_is_object(json_object_get(message, "environment"))) {
      return answer_fault("reset without environment");
    }
    return application_reset(app, json_object_get(message, "environment"), &fault) ? answer_ok() : answer_fault(fault);
  } else if (!app->has_session) {
    return answer_fault("a message before reset");
  } else if (0 == strcmp(op, "advance") || 0 == strcmp(op, "end")) {
    return answer_ok();   /* no timers; the library opens a connection per request and keeps none */
  } else if (0 == strcmp(op, "login")) {
    return application_login(app, json_string_value(json_object_get(message, "grant")));
  } else if (0 == strcmp(op, "request")) {
    return application_request(app, message);
  } else if (0 == strcmp(op, "tokens")) {
    return application_tokens(app);
  } else if (0 == strcmp(op, "restore_tokens")) {
    return application_restore_tokens(app, message);
  } else if (0 == strcmp(op, "restart")) {
    return application_restart(app);
  } else if (0 == strcmp(op, "authorization_url") || 0 == strcmp(op, "sign_in_url")) {
    return application_authorization_url(app, 0 == strcmp(op, "sign_in_url"));
  } else if (0 == strcmp(op, "complete_authorization") || 0 == strcmp(op, "complete_sign_in")) {
    return application_complete_authorization(app, json_string_value(json_object_get(message, "redirect_url")),
                                               0 == strcmp(op, "complete_sign_in"));
  } else if (0 == strcmp(op, "userinfo")) {
    return application_userinfo(app);
  } else if (0 == strcmp(op, "identity")) {
    return application_identity(app);
  } else if (0 == strcmp(op, "device_authorization")) {
    return application_device_authorization(app);
  } else if (0 == strcmp(op, "device_poll")) {
    return application_device_poll(app);
  }
  return unsupported(op);   /* concurrently, exchange: not declared */
}

int main(void) {
  struct application app = {0};
  json_t * message, * answer;
  int done = 0;

  protocol_open();
  /* API.md "Log messages": Yder on the console, which is stderr here. */
  y_init_logs("iddawc", Y_LOG_MODE_CONSOLE, Y_LOG_LEVEL_DEBUG, NULL, "iddawc adapter");
  i_global_init();
  while (!done && (message = protocol_read()) != NULL) {
    const char * op = json_string_value(json_object_get(message, "op"));
    y_log_message(Y_LOG_LEVEL_DEBUG, "<- %s", op != NULL ? op : "?");
    answer = handle(&app, message);
    if (json_object_get(message, "id") != NULL) {
      json_object_set(answer, "id", json_object_get(message, "id"));
    }
    done = op != NULL && 0 == strcmp(op, "shutdown");
    protocol_write(answer);
    json_decref(message);
  }
  application_close(&app);
  i_global_close();
  y_close_logs();
  return 0;
}
