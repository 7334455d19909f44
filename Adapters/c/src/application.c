/* The application's iddawc session and the calls it makes for the grants, the resource, the
 * tokens it holds and a restart. Configured as API.md configures a session: i_init_session,
 * i_set_parameter_list with the provider's endpoints and the client's registration, the token
 * endpoint authentication in I_OPT_TOKEN_METHOD ("By default, token endpoint authentication
 * method is I_TOKEN_AUTH_METHOD_NONE. If your client needs to be authenticated, you must
 * specify the desired method"), keys in the client JWKS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ulfius.h>
#include <rhonabwy.h>
#include "application.h"
#include "protocol.h"

/* The kid of the application's own DPoP key in its client JWKS (I_OPT_DPOP_KID). */
#define DPOP_KID "dpop"
/* Bounds one resource call: the application's own ulfius request (U_OPT_TIMEOUT). The library's
 * own requests take no timeout from the application (iddawc.c _i_init_request). */
#define RESOURCE_TIMEOUT_SECONDS 10

static const char * env_string(struct application * app, const char * key) {
  return json_string_value(json_object_get(app->environment, key));
}

static unsigned int token_method(const char * method) {
  if (0 == o_strcmp(method, "private_key_jwt")) {
    return I_TOKEN_AUTH_METHOD_JWT_SIGN_PRIVKEY;
  } else if (0 == o_strcmp(method, "client_secret_jwt")) {
    return I_TOKEN_AUTH_METHOD_JWT_SIGN_SECRET;
  } else if (0 == o_strcmp(method, "none")) {
    return I_TOKEN_AUTH_METHOD_NONE;
  }
  return I_TOKEN_AUTH_METHOD_SECRET_BASIC;   /* client_secret: the first method API.md lists */
}

/* Everything the application sets on a new session, at every launch (reset and restart). */
static void configure(struct application * app) {
  struct _i_session * s = &app->session;
  const char * method = env_string(app, "token_endpoint_auth_method");

  i_set_parameter_list(s,
                       I_OPT_CLIENT_ID, env_string(app, "client_id"),
                       I_OPT_CLIENT_SECRET, env_string(app, "client_secret"),
                       I_OPT_REDIRECT_URI, env_string(app, "redirect_uri"),
                       I_OPT_AUTH_ENDPOINT, env_string(app, "authorization_endpoint"),
                       I_OPT_TOKEN_ENDPOINT, env_string(app, "token_endpoint"),
                       I_OPT_DEVICE_AUTHORIZATION_ENDPOINT, env_string(app, "device_authorization_endpoint"),
                       I_OPT_ISSUER, env_string(app, "issuer"),
                       I_OPT_OPENID_CONFIG_ENDPOINT, env_string(app, "openid_configuration_url"),
                       I_OPT_ID_TOKEN_SIGNING_ALG, env_string(app, "id_token_signing_alg"),
                       I_OPT_TOKEN_METHOD, token_method(method),
                       I_OPT_PKCE_METHOD, I_PKCE_METHOD_S256,
                       I_OPT_SAVE_HTTP_REQUEST_RESPONSE, 1,
                       I_OPT_NONE);
  if (env_string(app, "pushed_authorization_request_endpoint") != NULL) {
    i_set_str_parameter(s, I_OPT_PUSHED_AUTH_REQ_ENDPOINT, env_string(app, "pushed_authorization_request_endpoint"));
  }
  if (0 == o_strcmp(method, "private_key_jwt")) {
    json_t * jwk = json_loads(env_string(app, "client_assertion_jwk"), 0, NULL);
    const char * alg = json_string_value(json_object_get(jwk, "alg"));
    i_set_parameter_list(s, I_OPT_CLIENT_KID, json_string_value(json_object_get(jwk, "kid")),
                            I_OPT_CLIENT_SIGN_ALG, alg != NULL ? alg : "ES256",
                            I_OPT_NONE);
    json_decref(jwk);
  } else if (0 == o_strcmp(method, "client_secret_jwt")) {
    i_set_str_parameter(s, I_OPT_CLIENT_SIGN_ALG, "HS256");
  }
  if (app->uses_dpop) {
    /* API.md "Generate a DPoP token": with I_OPT_USE_DPOP the token, PAR, device, userinfo
     * and resource calls add a DPoP header, signed with the client key I_OPT_DPOP_KID names. */
    i_set_parameter_list(s, I_OPT_USE_DPOP, 1,
                            I_OPT_DPOP_KID, DPOP_KID,
                            I_OPT_DPOP_SIGN_ALG, "ES256",
                            I_OPT_NONE);
  }
}

/* The client JWKS of a new application: the registered assertion key, and a DPoP key of its own
 * (made once; it is exported with the session and so survives a restart). */
static int install_keys(struct application * app) {
  json_t * jwks = json_pack("{s[]}", "keys");
  int ret = I_OK;

  if (0 == o_strcmp(env_string(app, "token_endpoint_auth_method"), "private_key_jwt")) {
    json_array_append_new(json_object_get(jwks, "keys"), json_loads(env_string(app, "client_assertion_jwk"), 0, NULL));
  }
  if (app->uses_dpop) {
    jwk_t * private_key = NULL, * public_key = NULL;
    int attempts = 0, generated = 0;
    /* rhonabwy drops a coordinate's leading zero bytes: about 1 key in 125 has an x or y shorter
     * than the 32 bytes RFC 7518 §6.2.1.2 requires ("MUST be the full size of a coordinate"), and
     * a server refuses its proofs (probes/ec_key_coordinates). An application that met it would
     * make another key, as this one does, so that verdicts do not turn on a 1-in-125 draw; the
     * defect is in the README. */
    while (!generated && attempts++ < 32) {
      r_jwk_free(private_key);
      r_jwk_free(public_key);
      r_jwk_init(&private_key);
      r_jwk_init(&public_key);
      if (r_jwk_generate_key_pair(private_key, public_key, R_KEY_TYPE_EC, 256, DPOP_KID) != RHN_OK) break;
      generated = o_strlen(r_jwk_get_property_str(public_key, "x")) == 43 &&
                  o_strlen(r_jwk_get_property_str(public_key, "y")) == 43;
    }
    if (generated && r_jwk_set_property_str(private_key, "alg", "ES256") == RHN_OK) {
      json_array_append_new(json_object_get(jwks, "keys"), r_jwk_export_to_json_t(private_key));
    } else {
      ret = I_ERROR;
    }
    r_jwk_free(private_key);
    r_jwk_free(public_key);
  }
  if (ret == I_OK && json_array_size(json_object_get(jwks, "keys"))) {
    ret = i_set_client_jwks(&app->session, jwks);
  }
  json_decref(jwks);
  return ret;
}

void application_close(struct application * app) {
  if (app->has_session) {
    i_clean_session(&app->session);
    app->has_session = 0;
  }
  json_decref(app->environment);
  app->environment = NULL;
  free(app->store_path);
  app->store_path = NULL;
}

int application_reset(struct application * app, json_t * environment, char ** fault) {
  const char * method;

  application_close(app);
  app->environment = json_incref(environment);
  app->store_path = msprintf("%s/iddawc-session.json", env_string(app, "storage_dir"));
  app->uses_dpop = !json_is_null(json_object_get(environment, "dpop_signing_alg_values_supported"));
  method = env_string(app, "token_endpoint_auth_method");
  app->signs_jwts = app->uses_dpop || 0 == o_strcmp(method, "private_key_jwt") || 0 == o_strcmp(method, "client_secret_jwt");
  app->device_polls = 0;
  if (i_init_session(&app->session) != I_OK) {
    *fault = "i_init_session failed";
    return 0;
  }
  app->has_session = 1;
  configure(app);
  if (install_keys(app) != I_OK) {
    *fault = "cannot make the client's keys";
    return 0;
  }
  return 1;
}

/* What the application does before each library call:
 * - the error slots are emptied, so that what it reads after the call is that call's (the
 *   library sets I_OPT_ERROR from an error answer and never clears it);
 * - the saved status is zeroed, so that a call that got no answer shows none;
 * - a new jti, when the session signs JWTs: the library puts the session's I_OPT_TOKEN_JTI in
 *   every DPoP proof and client assertion it signs, and API.md says "The jti must be previously
 *   generated via I_OPT_TOKEN_JTI or generated via I_OPT_TOKEN_JTI_GENERATE"; iddawc's own
 *   client, idwcc, generates one before each DPoP call. */
void before_library_call(struct application * app) {
  i_set_parameter_list(&app->session, I_OPT_ERROR, NULL, I_OPT_ERROR_DESCRIPTION, NULL, I_OPT_ERROR_URI, NULL, I_OPT_NONE);
  if (app->session.saved_response != NULL) {
    app->session.saved_response->status = 0;
  }
  if (app->signs_jwts) {
    i_set_int_parameter(&app->session, I_OPT_TOKEN_JTI_GENERATE, 32);
  }
}

static int asked_for_dpop_nonce(struct application * app, int result) {
  return app->uses_dpop && result == I_ERROR_PARAM &&
         0 == o_strcmp(i_get_str_parameter(&app->session, I_OPT_ERROR), "use_dpop_nonce") &&
         i_get_str_parameter(&app->session, I_OPT_DPOP_NONCE_AS) != NULL;
}

/* i_run_token_request with API.md's "DPoP nonce" rule: the library keeps the server's nonce
 * and returns I_ERROR_PARAM, "It's up to the app using Iddawc to send another request by using
 * the same function": once. */
int run_token_request(struct application * app) {
  int result;
  before_library_call(app);
  result = i_run_token_request(&app->session);
  if (asked_for_dpop_nonce(app, result)) {
    before_library_call(app);
    result = i_run_token_request(&app->session);
  }
  return result;
}

/* The application saves its session after every call that may have changed it, with the
 * library's export (API.md "Import or export sessions"). */
void persist(struct application * app) {
  char * exported = i_export_session_str(&app->session);
  char * temporary = msprintf("%s.new", app->store_path);
  FILE * file = fopen(temporary, "w");
  if (file != NULL && exported != NULL) {
    fputs(exported, file);
    fclose(file);
    rename(temporary, app->store_path);
  } else if (file != NULL) {
    fclose(file);
  }
  o_free(temporary);
  i_free(exported);
}

json_t * application_login(struct application * app, const char * grant) {
  struct _i_session * s = &app->session;
  int result;

  if (0 == o_strcmp(grant, "password")) {
    i_set_parameter_list(s, I_OPT_RESPONSE_TYPE, I_RESPONSE_TYPE_PASSWORD,
                            I_OPT_USERNAME, env_string(app, "username"),
                            I_OPT_USER_PASSWORD, env_string(app, "password"),
                            I_OPT_NONE);
  } else if (0 == o_strcmp(grant, "client_credentials")) {
    i_set_response_type(s, I_RESPONSE_TYPE_CLIENT_CREDENTIALS);
  } else if (0 == o_strcmp(grant, "refresh_token")) {
    i_set_response_type(s, I_RESPONSE_TYPE_REFRESH_TOKEN);   /* README: "refresh_token" is a response type */
  } else {
    return answer_failure(client_error("unsupported", NULL, 0, NULL, "no such grant"));
  }
  result = run_token_request(app);
  persist(app);
  if (result != I_OK) {
    /* Nothing sent for want of a refresh token is a sign-in the user must make again. */
    return answer_failure(surfaced_error(app, "i_run_token_request", result,
                                         i_get_str_parameter(s, I_OPT_REFRESH_TOKEN) == NULL && 0 == o_strcmp(grant, "refresh_token")
                                           ? "authorization_required" : "protocol"));
  }
  return answer_success(200, NULL, 0);
}

static int resource_asked_for_dpop_nonce(struct application * app, int result, struct _u_response * response) {
  return app->uses_dpop && result == I_OK && response->status == 401 &&
         u_map_get_case(response->map_header, "DPoP-Nonce") != NULL;
}

static int perform(struct application * app, struct _u_request * request, struct _u_response * response) {
  before_library_call(app);
  /* API.md: "If the access token is expired, Iddawc will attempt to refresh the token" when
   * refresh_if_expired is set; the token goes in the Authorization header; use_dpop as the
   * session uses DPoP (idwcc passes session->use_dpop the same way). */
  return i_perform_resource_service_request(&app->session, request, response, 1, I_BEARER_TYPE_HEADER, app->uses_dpop, 0);
}

json_t * application_request(struct application * app, json_t * message) {
  struct _u_request request;
  struct _u_response response;
  const char * name = NULL, * body = json_string_value(json_object_get(message, "body"));
  json_t * value, * answer;
  int result;

  ulfius_init_request(&request);
  ulfius_init_response(&response);
  ulfius_set_request_properties(&request,
                                U_OPT_HTTP_VERB, json_string_value(json_object_get(message, "method")),
                                U_OPT_HTTP_URL, json_string_value(json_object_get(message, "url")),
                                U_OPT_TIMEOUT, (unsigned long)RESOURCE_TIMEOUT_SECONDS,
                                U_OPT_NONE);
  json_object_foreach(json_object_get(message, "headers"), name, value) {
    ulfius_set_request_properties(&request, U_OPT_HEADER_PARAMETER, name, json_string_value(value), U_OPT_NONE);
  }
  if (body != NULL) {
    ulfius_set_request_properties(&request, U_OPT_BINARY_BODY, body, (size_t)json_string_length(json_object_get(message, "body")), U_OPT_NONE);
  }
  result = perform(app, &request, &response);
  /* API.md "DPoP nonce": a server that wants a nonce answers an error and the library keeps the
   * nonce; the application sends the request again, once. At the resource that is a 401 with
   * DPoP-Nonce; during the refresh the call makes, the token endpoint's use_dpop_nonce. */
  if (resource_asked_for_dpop_nonce(app, result, &response) || asked_for_dpop_nonce(app, result)) {
    ulfius_clean_response(&response);
    ulfius_init_response(&response);
    result = perform(app, &request, &response);
  }
  persist(app);
  if (result == I_OK) {
    answer = answer_success((long)response.status, response.binary_body, response.binary_body_length);
  } else {
    /* I_ERROR_PARAM: either "Error input parameters" (the session holds no access token) or
     * "Error refresh access token" (the refresh the call made first failed, and the resource
     * was not called). What the token endpoint answered, if anything, is in the session. */
    const char * category = "protocol";
    if (i_get_str_parameter(&app->session, I_OPT_ACCESS_TOKEN) == NULL ||
        i_get_str_parameter(&app->session, I_OPT_REFRESH_TOKEN) == NULL) {
      category = "authorization_required";   /* nothing to send, or nothing to refresh with: no request */
    } else if (surfaced_status(app) == 0) {
      category = "transient";                /* the refresh got no answer (refused, reset, cut off) */
    }
    answer = answer_failure(surfaced_error(app, "i_perform_resource_service_request", result, category));
  }
  ulfius_clean_request(&request);
  ulfius_clean_response(&response);
  return answer;
}

json_t * application_tokens(struct application * app) {
  const char * access_token = i_get_str_parameter(&app->session, I_OPT_ACCESS_TOKEN);
  const char * refresh_token = i_get_str_parameter(&app->session, I_OPT_REFRESH_TOKEN);
  json_t * tokens;

  if (access_token == NULL) {
    return json_pack("{sbsn}", "ok", 1, "tokens");
  }
  /* expires_at as the library holds it (I_OPT_EXPIRES_AT, Unix seconds; 0 when never set). */
  tokens = json_pack("{sssIso}", "access_token", access_token,
                     "expires_at", (json_int_t)i_get_int_parameter(&app->session, I_OPT_EXPIRES_AT),
                     "refresh_token", refresh_token != NULL ? json_string(refresh_token) : json_null());
  return json_pack("{sbso}", "ok", 1, "tokens", tokens);
}

/* The tokens sign-in: the saved session handed to the library with i_import_session_json_t,
 * as API.md has an application restore a session (the export's format, holding the tokens). */
json_t * application_restore_tokens(struct application * app, json_t * message) {
  json_t * saved = i_export_session_json_t(&app->session), * expires_at = json_object_get(message, "expires_at");
  int result;

  json_object_set(saved, "access_token", json_object_get(message, "access_token"));
  json_object_set(saved, "token_type", json_object_get(message, "token_type"));
  json_object_set(saved, "refresh_token", json_object_get(message, "refresh_token"));
  json_object_set_new(saved, "expires_at", json_integer(json_is_number(expires_at) ? (json_int_t)json_number_value(expires_at) : 0));
  if (json_is_string(json_object_get(message, "scope"))) {
    json_object_set(saved, "scope", json_object_get(message, "scope"));
  }
  result = i_import_session_json_t(&app->session, saved);
  json_decref(saved);
  persist(app);
  if (result != I_OK) {
    return answer_failure(surfaced_error(app, "i_import_session_json_t", result, "unexpected"));
  }
  return answer_success(200, NULL, 0);
}

/* A relaunched application: a new session, configured as at every launch, then the saved one
 * imported (API.md "Import or export sessions"); nothing else of the old one survives. */
json_t * application_restart(struct application * app) {
  FILE * file;
  char * saved = NULL;
  size_t length = 0;
  int result = I_OK;

  i_clean_session(&app->session);
  i_init_session(&app->session);
  configure(app);
  app->device_polls = 0;
  if ((file = fopen(app->store_path, "r")) != NULL) {
    getdelim(&saved, &length, '\0', file);
    fclose(file);
    result = i_import_session_str(&app->session, saved);
    free(saved);
  } else {
    result = install_keys(app);
  }
  if (result != I_OK) {
    return answer_failure(surfaced_error(app, "i_import_session_str", result, "unexpected"));
  }
  return answer_success(200, NULL, 0);
}
