/* What every probe shares: a throwaway HTTP server on 127.0.0.1 (port 0) that hands each request
 * to the probe's handler and prints it, a few readers of what the library sent, keys and signed
 * JWTs for the OpenID Connect probes, and the verdict line. No adapter code: the probes call
 * iddawc the way an application does. */
#ifndef PROBE_KIT_H
#define PROBE_KIT_H

#include <jansson.h>

struct probe_request {
  char method[16];
  char target[2048];      /* path and query */
  char headers[8192];     /* the raw header lines */
  char * body;
  size_t body_length;
};

struct probe_response {
  int status;
  char headers[2048];     /* extra header lines, each ending with \r\n */
  char body[16384];
};

typedef void (*probe_handler)(const struct probe_request * request, struct probe_response * response);

/* Starts the server (a thread) and returns its port; every request is printed as it comes. */
int probe_serve(probe_handler handler);
/* http://127.0.0.1:PORT + path, in a static buffer per call (up to 8 kept). */
const char * probe_url(const char * path);

/* A header of the request (case-insensitive name), copied to a static buffer (8 kept), or NULL. */
const char * probe_header(const struct probe_request * request, const char * name);
/* A form field of the request body, decoded, copied to a static buffer (8 kept), or NULL. */
const char * probe_form(const struct probe_request * request, const char * name);
/* A string claim of a compact JWT's payload, copied to a static buffer, or NULL. */
const char * probe_jwt_claim(const char * jwt, const char * claim);
/* Whether the request's path (before any query) is path. */
int probe_path_is(const struct probe_request * request, const char * path);
/* Sets a JSON answer. */
void probe_json(struct probe_response * response, int status, const char * json);

/* The OpenID provider of the OIDC probes: one RSA key (kid "k1"), its JWKS, discovery. */
void probe_provider_keys(void);
const char * probe_jwks(void);
const char * probe_discovery(void);
/* An ID token signed RS256 by the provider's key with these claims (a JSON object). */
char * probe_id_token(json_t * claims);
/* The same, its header naming kid (signed by the provider's key all the same). */
char * probe_id_token_with_kid(json_t * claims, const char * kid);

/* Prints "confirmed: claim" and exits 0 when holds, else "not confirmed: observed" and exits 1. */
void probe_verdict(int holds, const char * claim, const char * observed);

#endif
