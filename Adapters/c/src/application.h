/* The scenario's application: one iddawc session (struct _i_session), configured from the
 * harness's environment the way iddawc's README, API.md and examples configure one, and the
 * calls an application makes on it. Each function answers one protocol message. */
#ifndef ADAPTER_APPLICATION_H
#define ADAPTER_APPLICATION_H

#include <jansson.h>
#include <iddawc.h>

struct application {
  struct _i_session session;
  int has_session;
  json_t * environment;   /* the reset's environment: how the application is configured again at restart */
  char * store_path;      /* storage_dir/iddawc-session.json: the exported session */
  int uses_dpop;          /* the provider offers DPoP (dpop_signing_alg_values_supported not null) */
  int signs_jwts;         /* DPoP proofs or client assertions: each needs a jti from the application */
  int device_polls;       /* device_poll messages answered in the current device flow */
};

/* application.c: the session, the grants, the resource, the tokens, restart */
int application_reset(struct application * app, json_t * environment, char ** fault);
void application_close(struct application * app);
json_t * application_login(struct application * app, const char * grant);
json_t * application_request(struct application * app, json_t * message);
json_t * application_tokens(struct application * app);
json_t * application_restore_tokens(struct application * app, json_t * message);
json_t * application_restart(struct application * app);

/* Shared by the flows: what an application does around each library call. */
void before_library_call(struct application * app);
int run_token_request(struct application * app);
void persist(struct application * app);

/* authorization.c: the code flow, OpenID Connect sign-in, userinfo, the signed-in user */
json_t * application_authorization_url(struct application * app, int openid);
json_t * application_complete_authorization(struct application * app, const char * redirect_url, int openid);
json_t * application_userinfo(struct application * app);
json_t * application_identity(struct application * app);

/* device.c: the device authorization grant */
json_t * application_device_authorization(struct application * app);
json_t * application_device_poll(struct application * app);

/* surfaced.c: what the library surfaced after a failed call, as the protocol's error */
json_t * surfaced_error(struct application * app, const char * call, int result, const char * category);
long surfaced_status(struct application * app);

#endif
